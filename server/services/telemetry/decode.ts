// Decoding an OTLP export request: bytes to a checked request (JSON or protobuf), or a BAD_REQUEST with the
// reason. Pure and costly in proportion to the body (megabytes, hundreds of thousands of values), so the intake
// runs it in the offload worker (services/offload), off the console's thread.
import { ServiceError } from "../../domain/errors";
import { TELEMETRY_MAX_JSON_DEPTH, TELEMETRY_MAX_VALUES_PER_REQUEST } from "../../domain/telemetry";
import { decodeProtobuf, type Signal } from "./otlp-proto";
import { logsRequestSchema, metricsRequestSchema, type LogsRequest, type MetricsRequest } from "./schemas";

export type Encoding = "json" | "protobuf";

function decodeBody(signal: Signal, encoding: Encoding, bytes: Uint8Array): unknown {
  let value: unknown;
  if (encoding === "protobuf") {
    try {
      value = decodeProtobuf(signal, bytes);
    } catch (e) {
      throw new ServiceError("BAD_REQUEST", `The body is not an OTLP ${signal} export request in protobuf (${(e as Error).message.slice(0, 120)}).`);
    }
  } else {
    try {
      value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    } catch {
      throw new ServiceError("BAD_REQUEST", "The body is not JSON.");
    }
  }
  // The schema checks nested values recursively: a body nested thousands deep would exhaust the stack there
  // (protobuf's decoder stops at 100 levels itself). And each value costs time, even off the console's thread.
  const over = shapeOver(value, encoding === "json" ? TELEMETRY_MAX_JSON_DEPTH : Infinity, TELEMETRY_MAX_VALUES_PER_REQUEST);
  if (over === "depth") {
    throw new ServiceError("BAD_REQUEST", `The body is nested more than ${TELEMETRY_MAX_JSON_DEPTH} levels deep: not an OTLP ${signal} export request.`);
  }
  if (over === "size") {
    throw new ServiceError(
      "BAD_REQUEST",
      `The request holds more than ${TELEMETRY_MAX_VALUES_PER_REQUEST} values (records, points, attributes): export in smaller batches (the OpenTelemetry SDKs send 512 records at a time).`,
    );
  }
  return value;
}

/**
 * Whether `value` nests arrays and objects more than `maxDepth` deep, or holds more than `maxValues` of them
 * (iterative, and it stops at the limit: the check must not recurse, nor cost what it guards against).
 */
function shapeOver(value: unknown, maxDepth: number, maxValues: number): "depth" | "size" | null {
  if (value === null || typeof value !== "object") return null;
  // Counted as they are found, so a million-element array is refused without stacking it whole.
  const stack: [object, number][] = [[value, 0]];
  let seen = 1;
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (d >= maxDepth) return "depth";
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child === null || typeof child !== "object") continue;
      if (++seen > maxValues) return "size";
      stack.push([child, d + 1]);
    }
  }
  return null;
}

function checked<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } }, value: unknown, signal: Signal): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const where = issue?.path.length ? issue.path.map(String).join(".") : "the body";
  throw new ServiceError("BAD_REQUEST", `Not an OTLP ${signal} export request: ${where}: ${issue?.message ?? "invalid"}.`);
}

/** The body as a checked logs or metrics export request; throws BAD_REQUEST (with the reason) for anything else. */
export function decodeRequest(signal: "logs", encoding: Encoding, bytes: Uint8Array): LogsRequest;
export function decodeRequest(signal: "metrics", encoding: Encoding, bytes: Uint8Array): MetricsRequest;
export function decodeRequest(signal: Signal, encoding: Encoding, bytes: Uint8Array): LogsRequest | MetricsRequest;
export function decodeRequest(signal: Signal, encoding: Encoding, bytes: Uint8Array): LogsRequest | MetricsRequest {
  const body = decodeBody(signal, encoding, bytes);
  return signal === "logs" ? checked(logsRequestSchema, body, "logs") : checked(metricsRequestSchema, body, "metrics");
}
