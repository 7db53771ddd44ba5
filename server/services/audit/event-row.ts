// What a recorded event becomes before it joins the chain: its stored fields, scrubbed, cut to size and well-formed
// (record() does this at once, so the time and the details are those of the moment of recording); and the one JSON
// line a written row is printed as for log shippers.
import type { AuditEvent } from "../../runtime/audit/events";
import type { WrittenEvent } from "./chain-store";
import { exitStatusOf } from "./exit-status";
import type { ChainedFields } from "./hash";
import { scrubDetails } from "./scrub";

const MAX_DETAILS = 8_000;

/** An event as it is stored, without its position in the chain, and what is derived from it (not hashed). */
export type PendingFields = Omit<ChainedFields, "id"> & { exitStatus: string | null };

/**
 * A lone UTF-16 surrogate (JSON's "\ud800" from an agent's telemetry, or a cut through an emoji) as U+FFFD. SQLite
 * stores text as UTF-8 and reads such a unit back as other characters, so a row hashed with it never verified again:
 * the audit reported tampering. Hashed and stored as the same well-formed text, it verifies.
 */
const wellFormed = (s: string) => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");

export function toPendingFields(e: AuditEvent): PendingFields {
  let details: string | null = null;
  if (e.details && typeof e.details === "object") {
    details = JSON.stringify(scrubDetails(e.details));
    if (details.length > MAX_DETAILS) details = JSON.stringify({ truncated: true, preview: details.slice(0, MAX_DETAILS) });
    if (details === "{}") details = null;
  }
  const at = e.at instanceof Date && !Number.isNaN(e.at.getTime()) ? e.at.getTime() : Date.now();
  const str = (v: unknown) => (typeof v === "string" && v !== "" ? wellFormed(v.slice(0, 500)) : null);
  const type = wellFormed(String(e.type));
  const outcome = str(e.outcome);
  return {
    at,
    type,
    actorId: str(e.actor?.id),
    actorEmail: str(e.actor?.email),
    sessionId: str(e.sessionId),
    skill: str(e.skill),
    layer: str(e.layer),
    digest: str(e.digest),
    tool: str(e.tool),
    model: str(e.model),
    mode: str(e.mode),
    outcome,
    durationMs: typeof e.durationMs === "number" && Number.isFinite(e.durationMs) ? Math.round(e.durationMs) : null,
    details,
    exitStatus: exitStatusOf({ type, outcome, details }),
    // The request's tenant (issue #40), when it named one: rows without keep their old serialisation (hash.ts).
    ...(str(e.tenant) ? { tenant: str(e.tenant) } : {}),
    // Only set when the event came from an agent, so console rows keep their old serialisation (hash.ts).
    ...(e.source ? { sourceAgent: str(e.source.agent), sourceVersion: str(e.source.version), sourceHost: str(e.source.host), sourceUser: str(e.source.user) } : {}),
  };
}

/** The standard-output form of a written event: one JSON object, null fields left out, time in ISO 8601. */
export function stdoutLine(row: WrittenEvent): string {
  const o: Record<string, unknown> = { log: "omniforge.audit", id: row.id, at: new Date(row.at).toISOString() };
  for (const [k, v] of Object.entries(row)) {
    // The exit status is derived from the fields printed (exit-status.ts): a log line stays what the chain covers.
    if (k === "id" || k === "at" || k === "exitStatus" || v === null) continue;
    o[k] = k === "details" ? JSON.parse(v as string) : v;
  }
  return JSON.stringify(o) + "\n";
}
