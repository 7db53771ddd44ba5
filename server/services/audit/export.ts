// Export of the filtered events as CSV or JSONL, newest first (the table's order), read a page at a time
// and yielded as text chunks: a million-row export never holds more than one page in memory.
// JSONL values are exactly as stored, so an export can be compared with the table or re-verified; CSV
// neutralises spreadsheet formulas (see csvField).
import type { Db } from "../../../db/client";
import { AUDIT_PAGE_MAX } from "../../domain/limits";
import { databaseUnreachableMessage } from "../../../db/dialect";
import type { AuditFilter, AuditScope } from "./filter";
import { listEvents, type AuditEventView } from "./queries";
import { yieldToEventLoop } from "../../runtime/turns";

export type ExportFormat = "csv" | "jsonl";

/** How the last line of an export that stopped midway begins. */
export const INCOMPLETE_MARK = "# INCOMPLETE EXPORT: stopped before its end:";

export const EXPORT_COLUMNS = [
  "id",
  "at",
  "type",
  "actorId",
  "actorEmail",
  "sessionId",
  "skill",
  "layer",
  "digest",
  "tool",
  "model",
  "mode",
  "outcome",
  "durationMs",
  "details",
  "prevHash",
  "hash",
  "chain", // 1 = unkeyed sha256, 2 = keyed: a JSONL export re-verifies with the key
  // Where an agent's event came from (telemetry); empty for the console's own. Part of the hash when set.
  "sourceAgent",
  "sourceVersion",
  "sourceHost",
  "sourceUser",
  // The tenant the request acted for (issue #40); empty when none. Part of the hash when set.
  "tenant",
] as const;

/**
 * RFC 4180: a field with a comma, quote, CR or LF (or edge spaces) is quoted, quotes doubled. A text value
 * that a spreadsheet would run as a formula (=, +, -, @, tab, CR first) gets a leading apostrophe: skill
 * names and details come from authors, and an admin opening the export must not execute them. JSONL stays
 * byte-exact.
 */
export function csvField(v: unknown): string {
  if (v === null || v === undefined) return "";
  let s = typeof v === "string" ? v : typeof v === "object" ? JSON.stringify(v) : String(v);
  if (typeof v === "string" && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function exportRecord(e: AuditEventView): Record<(typeof EXPORT_COLUMNS)[number], unknown> {
  return { ...e, at: new Date(e.at).toISOString() };
}

export function csvLine(e: AuditEventView): string {
  const r = exportRecord(e);
  return EXPORT_COLUMNS.map((k) => csvField(r[k])).join(",") + "\r\n";
}

export function jsonlLine(e: AuditEventView): string {
  const r = exportRecord(e);
  const o: Record<string, unknown> = {};
  for (const k of EXPORT_COLUMNS) o[k] = r[k] ?? null;
  return JSON.stringify(o) + "\n";
}

/** The export as text chunks (one per page of `pageSize` rows). */
export async function* exportEvents(
  db: Db,
  filter: AuditFilter,
  scope: AuditScope,
  format: ExportFormat,
  pageSize = AUDIT_PAGE_MAX,
): AsyncGenerator<string> {
  if (format === "csv") yield EXPORT_COLUMNS.join(",") + "\r\n";
  let cursor: string | undefined;
  for (;;) {
    const { events, nextCursor } = await listEvents(db, filter, scope, { cursor, limit: pageSize });
    if (events.length) yield events.map(format === "csv" ? csvLine : jsonlLine).join("");
    if (!nextCursor) return;
    cursor = nextCursor;
    // Let the event loop breathe between pages so a long export does not block other requests.
    await yieldToEventLoop();
  }
}

/**
 * The export as a web ReadableStream (route handlers return it as the response body); pulls on demand. A read that
 * fails midway (the database went away) ends it as incomplete, never as a file that looks whole: a last line saying
 * so (no CSV row, no JSON: a reader of the file stops on it), then the stream errors, which makes the server abort
 * the response (the browser's download fails) rather than end it. The error and the one log line carry the database's
 * one line, never the failed query (its parameters are the filter's values).
 */
export function exportStream(db: Db, filter: AuditFilter, scope: AuditScope, format: ExportFormat, pageSize = AUDIT_PAGE_MAX): ReadableStream<Uint8Array> {
  const it = exportEvents(db, filter, scope, format, pageSize);
  const enc = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await it.next();
        if (done) controller.close();
        else controller.enqueue(enc.encode(value));
      } catch (err) {
        const why = databaseUnreachableMessage(err) ?? "reading the audit failed";
        console.error(`[omniforge] audit export stopped before its end: ${why}`);
        controller.enqueue(enc.encode(`${format === "csv" ? "\r\n" : "\n"}${INCOMPLETE_MARK} ${why}\n`));
        controller.error(new Error(`The export is incomplete: ${why}`));
      }
    },
    async cancel() {
      await it.return(undefined);
    },
    // No page read ahead of the client: each page is read when the last one has gone out.
  }, { highWaterMark: 0 });
}
