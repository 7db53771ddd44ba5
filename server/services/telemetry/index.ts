// Telemetry in: the OTLP/HTTP receiver's logic (server/http/otel-route.ts is its HTTP side).
export { encodingOf, inflate, ingest, senderOf, type Encoding, type IntakeResult } from "./intake";
export { encodeResponse, encodeStatus, type Signal } from "./otlp-proto";
