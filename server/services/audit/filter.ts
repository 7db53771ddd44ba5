// The dashboard's filter, validated once here (the router, the export route and the URL all use it), and
// its translation to SQL. Every condition is a column compared with a bound parameter; no text from the
// filter is ever spliced into SQL.
import { z } from "zod";
import { AUDIT_OUTCOMES, CONSOLE_SOURCE, type AuditFilterKey } from "./filter-keys";

export { AUDIT_FILTER_KEYS, AUDIT_OUTCOMES, type AuditFilterKey } from "./filter-keys";

/** Accepts epoch milliseconds or an ISO date string (URLs carry the readable form). */
const time = z.union([z.number(), z.string().min(1).max(40)]).transform((v, ctx) => {
  const t = typeof v === "number" ? v : /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  if (!Number.isFinite(t)) {
    ctx.addIssue({ code: "custom", message: `Not a date: ${String(v)}` });
    return z.NEVER;
  }
  return Math.trunc(t);
});

const name = z.string().trim().min(1).max(200);

export const auditFilterSchema = z.object({
  from: time.optional(),
  to: time.optional(),
  type: z.string().trim().regex(/^[a-z_]{1,64}$/, "An event type is lower-case letters and underscores.").optional(),
  skill: name.optional(),
  layer: name.optional(),
  /** The actor id (a console user id, or "cli" / "system"). */
  user: name.optional(),
  session: name.optional(),
  model: name.optional(),
  tool: name.optional(),
  outcome: z.enum(AUDIT_OUTCOMES).optional(),
  /** "console" for the console's own events, or the agent that reported them ("claude-code", "codex"). */
  source: z.string().trim().regex(/^[A-Za-z0-9_.:/-]{1,100}$/, "A source is an agent's name or \"console\".").optional(),
} satisfies Record<AuditFilterKey, z.ZodType>);
export type AuditFilter = z.output<typeof auditFilterSchema>;
export type AuditFilterInput = z.input<typeof auditFilterSchema>;

export const pageSchema = z.object({
  /** Opaque keyset cursor from the previous page ("<at>.<id>"). */
  cursor: z.string().regex(/^\d+\.\d+$/).optional(),
  limit: z.number().int().min(1).max(500).default(50),
});
export type AuditPage = z.input<typeof pageSchema>;

/** Who may be seen: admins everything, authors only events they caused. Set by the server, never by the client. */
export type AuditScope = { kind: "all" } | { kind: "own"; actorId: string };

/** Who sees what: administrators every event, everyone else only the events they caused. */
export function auditScopeFor(user: { id: string; role: string }): AuditScope {
  return user.role === "admin" ? { kind: "all" } : { kind: "own", actorId: user.id };
}

export interface Where {
  sql: string;
  params: unknown[];
}

const COLUMNS: [keyof AuditFilter, string][] = [
  ["type", "type"],
  ["skill", "skill"],
  ["layer", "layer"],
  ["user", "actor_id"],
  ["session", "session_id"],
  ["model", "model"],
  ["tool", "tool"],
  ["outcome", "outcome"],
];

/** `WHERE ...` for a filter and a scope (always a valid clause: "WHERE 1" when nothing is set). */
export function whereOf(filter: AuditFilter, scope: AuditScope, extra: string[] = [], extraParams: unknown[] = []): Where {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (scope.kind === "own") {
    parts.push("actor_id = ?");
    params.push(scope.actorId);
  }
  for (const [key, col] of COLUMNS) {
    const v = filter[key];
    if (v !== undefined) {
      parts.push(`${col} = ?`);
      params.push(v);
    }
  }
  if (filter.source !== undefined) {
    // The console's own rows have no source (telemetry rows always name their agent).
    if (filter.source === CONSOLE_SOURCE) parts.push("source_agent IS NULL");
    else {
      parts.push("source_agent = ?");
      params.push(filter.source);
    }
  }
  if (filter.from !== undefined) {
    parts.push("at >= ?");
    params.push(filter.from);
  }
  if (filter.to !== undefined) {
    parts.push("at < ?");
    params.push(filter.to);
  }
  parts.push(...extra);
  params.push(...extraParams);
  return { sql: parts.length ? `WHERE ${parts.join(" AND ")}` : "WHERE 1", params };
}

export function parseCursor(cursor: string | undefined): { at: number; id: number } | null {
  if (!cursor) return null;
  const [at, id] = cursor.split(".").map(Number);
  return Number.isSafeInteger(at) && Number.isSafeInteger(id) ? { at: at!, id: id! } : null;
}

export function cursorOf(row: { at: number; id: number }): string {
  return `${row.at}.${row.id}`;
}
