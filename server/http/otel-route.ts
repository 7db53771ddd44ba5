// POST /api/otel/v1/logs and /api/otel/v1/metrics: an OTLP/HTTP receiver for agents' telemetry (JSON or
// protobuf, gzip allowed). Accepts only `Authorization: Bearer` with telemetry:write. Answers as OTLP/HTTP
// says: 200 with an export response (partialSuccess names what was counted and dropped), 400 with the reason
// for a bad payload (nothing written), 401/403 for the token, 413 over OMNIFORGE_TELEMETRY_MAX_BYTES, 415 for
// another Content-Type, 429 with Retry-After past the token's audit rows per minute (nothing written). Error bodies are google.rpc.Status, in the request's encoding.
import type { Db } from "../../db/client";
import { setting } from "../../env";
import type { AuditSink } from "../runtime/audit/events";
import { HTTP_STATUS, isServiceError } from "../domain/errors";
import { OTLP_JSON, OTLP_PROTOBUF } from "../domain/telemetry";
import { encodeResponse, encodeStatus, encodingOf, inflate, ingest, type Encoding, type Signal } from "../services/telemetry";
import { authenticateBearer } from "../services/tokens";
import { BodyTooLarge, readBodyWithin } from "./body-limit";

export interface OtelRouteDeps {
  db: Db;
  audit: AuditSink;
  /** Body limit in bytes; default the OMNIFORGE_TELEMETRY_MAX_BYTES setting. */
  maxBytes?: number;
}

// google.rpc.Code of each HTTP status the receiver answers with.
const RPC_CODE: Record<number, number> = { 400: 3, 401: 16, 403: 7, 405: 12, 413: 8, 415: 3, 429: 8 };

function reply(encoding: Encoding, status: number, message: string, retryAfterSeconds?: number): Response {
  const code = RPC_CODE[status] ?? 2;
  const headers: Record<string, string> = status === 401 ? { "www-authenticate": 'Bearer realm="omniforge"' } : {};
  // OTLP/HTTP exporters wait this long before sending the same batch again.
  if (retryAfterSeconds) headers["retry-after"] = String(retryAfterSeconds);
  if (encoding === "protobuf") {
    return new Response(encodeStatus(code, message) as BodyInit, { status, headers: { ...headers, "content-type": OTLP_PROTOBUF } });
  }
  return new Response(JSON.stringify({ code, message }), { status, headers: { ...headers, "content-type": OTLP_JSON } });
}

const REJECTED_FIELD: Record<Signal, string> = { logs: "rejectedLogRecords", metrics: "rejectedDataPoints" };

export async function handleOtlpRequest(req: Request, signal: Signal, deps: OtelRouteDeps): Promise<Response> {
  // Errors are answered in the request's encoding when it names one we speak, else in JSON.
  let encoding: Encoding = (req.headers.get("content-type") ?? "").toLowerCase().startsWith(OTLP_PROTOBUF) ? "protobuf" : "json";
  if (req.method !== "POST") return reply(encoding, 405, "Use POST.");
  try {
    const principal = await authenticateBearer(deps.db, req.headers.get("authorization"), "telemetry:write");
    try {
      encoding = encodingOf(req.headers.get("content-type"));
    } catch (e) {
      return reply("json", 415, (e as Error).message);
    }
    const limit = deps.maxBytes ?? setting("OMNIFORGE_TELEMETRY_MAX_BYTES");
    let bytes: Uint8Array;
    try {
      bytes = (await readBodyWithin(req, limit)) ?? new Uint8Array();
    } catch (e) {
      if (e instanceof BodyTooLarge) return reply(encoding, 413, e.message);
      throw e;
    }
    bytes = inflate(bytes, req.headers.get("content-encoding"), limit);
    const r = await ingest(deps.db, deps.audit, { signal, encoding, bytes, principal });
    const partial = r.rejected ? { [REJECTED_FIELD[signal]]: r.rejected, errorMessage: r.message } : undefined;
    if (encoding === "protobuf") {
      return new Response(encodeResponse(signal, partial) as BodyInit, { headers: { "content-type": OTLP_PROTOBUF } });
    }
    // OTLP/JSON writes int64 as a decimal string.
    const json = partial ? { partialSuccess: { ...partial, [REJECTED_FIELD[signal]]: String(r.rejected) } } : {};
    return new Response(JSON.stringify(json), { headers: { "content-type": OTLP_JSON } });
  } catch (e) {
    if (isServiceError(e)) return reply(encoding, HTTP_STATUS[e.code], e.message, Number(e.details?.retryAfterSeconds) || undefined);
    throw e;
  }
}
