// The OTLP/HTTP receiver's logic: body bytes in, audit rows out. Decodes (JSON or protobuf, gzip allowed) and
// checks the whole request in the offload worker (decode.ts), maps it (map.ts), and only then records, so a bad
// payload writes nothing.
// Throws ServiceError: BAD_REQUEST (with the reason), PAYLOAD_TOO_LARGE, UNSUPPORTED via BAD_REQUEST.
import { gunzipSync } from "node:zlib";
import type { Db } from "../../../db/client";
import type { AuditSink } from "../../runtime/audit/events";
import { ServiceError } from "../../domain/errors";
import { OTLP_JSON, OTLP_PROTOBUF, TELEMETRY_MAX_ROWS_PER_REQUEST, TELEMETRY_MAX_ROWS_PER_TOKEN_MINUTE } from "../../domain/telemetry";
import { processWide } from "../../process-wide";
import { RateLimiter } from "../auth/rate-limit";
import type { TokenPrincipal } from "../tokens";
import { flushAudit } from "../audit";
import { mapLogs, mapMetrics, type Mapped, type Sender } from "./map";
import { previousValues } from "./previous";
import { runLocked } from "../../../db/locks";
import { yieldToEventLoop } from "../../runtime/turns";
import { offload } from "../offload/pool";
import type { Encoding } from "./decode";
import type { Signal } from "./otlp-proto";
import type { LogsRequest, MetricsRequest } from "./schemas";

export type { Encoding } from "./decode";

export interface IntakeResult {
  /** Audit events written. */
  accepted: number;
  /** Records (logs) or data points (metrics) counted and dropped: events the console does not keep. */
  rejected: number;
  /** Names what was dropped, for OTLP's partialSuccess.errorMessage; empty when nothing was. */
  message: string;
}

/** The encoding of a Content-Type, or a 415-worthy error (reported as BAD_REQUEST with the reason). */
export function encodingOf(contentType: string | null): Encoding {
  const t = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (t === OTLP_JSON) return "json";
  if (t === OTLP_PROTOBUF) return "protobuf";
  throw new ServiceError("BAD_REQUEST", `Content-Type must be ${OTLP_JSON} or ${OTLP_PROTOBUF} (OTLP/HTTP), not "${t.slice(0, 60) || "none"}".`, { unsupportedMediaType: true });
}

/** Undoes Content-Encoding: gzip within the size limit (OTLP exporters may compress). */
export function inflate(bytes: Uint8Array, contentEncoding: string | null, limit: number): Uint8Array {
  const enc = (contentEncoding ?? "").trim().toLowerCase();
  if (!enc || enc === "identity") return bytes;
  if (enc !== "gzip") throw new ServiceError("BAD_REQUEST", `Content-Encoding "${enc.slice(0, 40)}" is not supported: send gzip or none.`);
  try {
    return gunzipSync(bytes, { maxOutputLength: limit });
  } catch (e) {
    if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw new ServiceError("PAYLOAD_TOO_LARGE", `The uncompressed body is larger than the limit of ${limit} bytes.`);
    throw new ServiceError("BAD_REQUEST", "The body is not valid gzip.");
  }
}

export function senderOf(p: TokenPrincipal): Sender {
  // A machine token has no user: the token's name stands for it.
  return { actorId: p.userId ?? `token:${p.tokenName}`, actorEmail: p.email };
}

function summary(m: Mapped): IntakeResult {
  let rejected = 0;
  for (const n of m.dropped.values()) rejected += n;
  const names = [...m.dropped.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([k, n]) => `${k.split(":").slice(1).join(":")} ×${n}`);
  return {
    accepted: m.events.length,
    rejected,
    message: rejected ? `Not kept by the console (counted and dropped): ${names.join(", ")}${m.dropped.size > 10 ? ", …" : ""}.` : "",
  };
}

/** Rows written per token and minute, per database (one console has one; each test its own). */
const rowLimiters = processWide("telemetryRowLimiters", () => new WeakMap<Db, RateLimiter>());

function rowLimiter(db: Db): RateLimiter {
  let l = rowLimiters().get(db);
  if (!l) rowLimiters().set(db, (l = new RateLimiter(TELEMETRY_MAX_ROWS_PER_TOKEN_MINUTE, 60_000)));
  return l;
}

/** Counts a request's rows against its token's minute, or refuses the whole request (429, Retry-After) with nothing written. */
function takeRows(db: Db, principal: TokenPrincipal, rows: number, at: Date): void {
  if (!rows) return;
  const waitMs = rowLimiter(db).take(principal.tokenId, rows, at.getTime());
  if (!waitMs) return;
  const retryAfterSeconds = Math.ceil(waitMs / 1000);
  throw new ServiceError(
    "TOO_MANY_REQUESTS",
    `This token has sent more than ${TELEMETRY_MAX_ROWS_PER_TOKEN_MINUTE} audit events in a minute; nothing of this request was kept: send it again in ${retryAfterSeconds} s.`,
    { retryAfterSeconds },
  );
}

export interface IntakeInput {
  signal: Signal;
  encoding: Encoding;
  /** The body, already within the size limit and inflated. */
  bytes: Uint8Array;
  principal: TokenPrincipal;
  received?: Date;
}

/**
 * Points mapped (their series' lookups one query), and rows written, per turn of the event loop. A request at its cap
 * (10,000 rows: an HMAC and an insert each) took 0.4-1.4 s in one turn, in which the console answered nothing else
 * (issue 35 item 5).
 */
const SLICE = 500;

/** The request cut into requests of at most `size` data points (same resources, scopes and metrics around them). */
function* metricSlices(req: MetricsRequest, size: number): Generator<MetricsRequest> {
  let slice: MetricsRequest["resourceMetrics"] = [];
  let points = 0;
  for (const rm of req.resourceMetrics ?? []) {
    for (const sm of rm.scopeMetrics ?? []) {
      for (const m of sm.metrics ?? []) {
        const all = m.sum?.dataPoints ?? [];
        for (let i = 0; i === 0 || i < all.length; i += size) {
          const metric = m.sum && all.length ? { ...m, sum: { ...m.sum, dataPoints: all.slice(i, i + size) } } : m;
          slice.push({ ...rm, scopeMetrics: [{ ...sm, metrics: [metric] }] });
          points += Math.max(1, Math.min(size, all.length - i));
          if (points >= size) {
            yield { resourceMetrics: slice };
            slice = [];
            points = 0;
          }
        }
      }
    }
  }
  if (slice.length) yield { resourceMetrics: slice };
}

/** The end of the previous ingest into each database: mapping a counter reads what the one before it wrote. */
const ingesting = processWide("telemetryIngesting", () => new WeakMap<Db, Promise<unknown>>());

/** Runs `work` after every ingest already under way for `db`: one at a time, as when each ran in a single turn. */
function oneAtATime<T>(db: Db, work: () => Promise<T>): Promise<T> {
  const run = (ingesting().get(db) ?? Promise.resolve()).then(work, work);
  ingesting().set(db, run.catch(() => undefined));
  return run;
}

async function mapMetricsBySlice(db: Db, req: MetricsRequest, sender: Sender, received: Date): Promise<Mapped> {
  // Cumulative counters need the value last recorded for their series: written rows must be visible.
  await flushAudit(db);
  const mapped: Mapped = { events: [], dropped: new Map() };
  for (const slice of metricSlices(req, SLICE)) {
    const part = await mapMetrics(slice, sender, received, (lookups) => previousValues(db, lookups), TELEMETRY_MAX_ROWS_PER_REQUEST - mapped.events.length);
    mapped.events.push(...part.events);
    for (const [k, n] of part.dropped) mapped.dropped.set(k, (mapped.dropped.get(k) ?? 0) + n);
    await yieldToEventLoop();
  }
  return mapped;
}

/** Decodes and checks one export request (in the offload worker), maps it, then records its events; nothing is recorded when it throws. */
export async function ingest(db: Db, audit: AuditSink, input: IntakeInput): Promise<IntakeResult> {
  const received = input.received ?? new Date();
  const sender = senderOf(input.principal);
  const req = await offload("decodeOtlp", input.signal, input.encoding, input.bytes);
  // Metrics under the database's lock: a counter's last value is read and the rows computed from it are written by
  // one server at a time, so two servers taking exports of one series at once never both count from the same value.
  const counted = input.signal === "metrics" ? <T>(work: () => Promise<T>) => runLocked(db, "telemetry-counters", work) : <T>(work: () => Promise<T>) => work();
  return oneAtATime(db, () => counted(async () => {
    const mapped = input.signal === "logs" ? mapLogs(req as LogsRequest, sender, received) : await mapMetricsBySlice(db, req as MetricsRequest, sender, received);
    takeRows(db, input.principal, mapped.events.length, received);
    // Written before answering: the agent's next export (and the dashboard) sees them, and a cumulative counter's
    // next delta is computed against this one.
    for (let i = 0; i < mapped.events.length; i += SLICE) {
      for (const e of mapped.events.slice(i, i + SLICE)) audit.record(e);
      await flushAudit(db);
      if (i + SLICE < mapped.events.length) await yieldToEventLoop();
    }
    return summary(mapped);
  }));
}
