// Telemetry in: the OTLP/HTTP receiver's logic (server/http/otel-route.ts is its HTTP side).
export { encodingOf, inflate, ingest, type Encoding } from "./intake";
export { encodeResponse, encodeStatus, type Signal } from "./otlp-proto";
