// The dashboard's filter, validated once here (the router, the export route and the URL all use it), and
// its translation to drizzle conditions on db/schema/audit.ts's columns. Every condition is a column compared
// with a bound parameter; no text from the filter is ever spliced into SQL.
import { and, eq, gte, inArray, isNull, lt, lte, notInArray, or, type Placeholder, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { auditEvents } from "../../../db/schema/audit";
import { callerTenants } from "../tenants/membership";
import { AUDIT_PAGE_MAX } from "../../domain/limits";
import { PLAYGROUND_EVENT_TYPES } from "../../domain/audit-events";
import { AUDIT_OUTCOMES, auditRangeProblem, CONSOLE_SOURCE, PLAYGROUND_SOURCE, type AuditFilterKey } from "../../domain/audit-filter-keys";

/** Accepts epoch milliseconds or an ISO date string (URLs carry the readable form). */
const time = z.union([z.number(), z.string().min(1).max(40)]).transform((v, ctx) => {
  const t = typeof v === "number" ? v : /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  // Beyond ±8.64e15 ms there is no date (new Date(t) is invalid), though the number is finite.
  if (!Number.isFinite(t) || Number.isNaN(new Date(t).getTime())) {
    ctx.addIssue({ code: "custom", message: `not a date: ${String(v)}` });
    return z.NEVER;
  }
  return Math.trunc(t);
});

const name = z.string().trim().min(1).max(200);

/** The filter's fields; extend these (zod refuses to extend a schema with a check), then add withRangeCheck. */
export const auditFilterFields = z.object({
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
  /** "console" or "playground" for the console's own events, or the agent that reported them ("claude-code", "codex"). */
  source: z.string().trim().regex(/^[A-Za-z0-9_.:/-]{1,100}$/, "A source is an agent's name, \"console\" or \"playground\".").optional(),
} satisfies Record<AuditFilterKey, z.ZodType>);

/** Refuses a range that can hold nothing (From after To) with the reason, instead of answering "0 events". */
export function withRangeCheck<S extends z.ZodType<{ from?: number; to?: number }>>(schema: S): S {
  return schema.superRefine((f, ctx) => {
    const problem = auditRangeProblem(f.from, f.to);
    if (problem) ctx.addIssue({ code: "custom", message: problem, path: ["to"] });
  }) as S;
}

export const auditFilterSchema = withRangeCheck(auditFilterFields);
export type AuditFilter = z.output<typeof auditFilterSchema>;

export const pageSchema = z.object({
  /** Opaque keyset cursor from the previous page ("<at>.<id>"). */
  cursor: z.string().regex(/^\d+\.\d+$/).optional(),
  limit: z.number().int().min(1).max(AUDIT_PAGE_MAX).default(50),
});
export type AuditPage = z.input<typeof pageSchema>;

/** Who may be seen: admins everything, authors only events they caused. Set by the server, never by the client. */
export type AuditScope = { kind: "all" } | { kind: "own"; actorId: string } | { kind: "tenants"; tenants: readonly string[] };

/**
 * Who sees what: the global admin (an admin with no tenants) every event, an admin with tenants the events of
 * their tenants (issue #40), everyone else only the events they caused.
 */
export function auditScopeFor(user: { id: string; role: string }, tenants: readonly string[] = []): AuditScope {
  if (user.role !== "admin") return { kind: "own", actorId: user.id };
  return tenants.length ? { kind: "tenants", tenants: [...tenants].sort() } : { kind: "all" };
}

/** auditScopeFor with the user's tenants (the session's, else read from the database). */
export async function auditScopeOf(db: Db, user: { id: string; role: string; tenants?: readonly string[] }): Promise<AuditScope> {
  return auditScopeFor(user, user.role === "admin" ? await callerTenants(db, user) : []);
}

const COLUMNS = [
  ["type", auditEvents.type],
  ["skill", auditEvents.skill],
  ["layer", auditEvents.layer],
  ["user", auditEvents.actorId],
  ["session", auditEvents.sessionId],
  ["model", auditEvents.model],
  ["tool", auditEvents.tool],
  ["outcome", auditEvents.outcome],
] as const satisfies readonly (readonly [keyof AuditFilter, unknown])[];

/**
 * The WHERE condition for a filter and a scope, plus any extra conditions (undefined when nothing is set).
 * `from`/`to` may be drizzle placeholders, so a query repeated per time bucket is prepared once.
 */
export function whereOf(
  filter: Omit<AuditFilter, "from" | "to"> & { from?: number | Placeholder; to?: number | Placeholder },
  scope: AuditScope,
  ...extra: (SQL | undefined)[]
): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (scope.kind === "own") parts.push(eq(auditEvents.actorId, scope.actorId));
  if (scope.kind === "tenants") parts.push(inArray(auditEvents.tenant, [...scope.tenants]));
  for (const [key, col] of COLUMNS) {
    const v = filter[key];
    if (v !== undefined) parts.push(eq(col, v));
  }
  if (filter.source !== undefined) {
    // The console's own rows have no source (telemetry rows always name their agent); its playground's are told
    // apart by their type.
    if (filter.source === CONSOLE_SOURCE) parts.push(isNull(auditEvents.sourceAgent), notInArray(auditEvents.type, [...PLAYGROUND_EVENT_TYPES]));
    else if (filter.source === PLAYGROUND_SOURCE) parts.push(isNull(auditEvents.sourceAgent), inArray(auditEvents.type, [...PLAYGROUND_EVENT_TYPES]));
    else parts.push(eq(auditEvents.sourceAgent, filter.source));
  }
  if (filter.from !== undefined) parts.push(gte(auditEvents.at, filter.from));
  if (filter.to !== undefined) parts.push(lt(auditEvents.at, filter.to));
  parts.push(...extra);
  return and(...parts);
}

/**
 * Rows after a keyset cursor in the (at, id) descending order. The `at <= cursor` bound says nothing new, but it is
 * the one part an index on (..., at) can start from: without it PostgreSQL walked the newest rows down to the cursor
 * and dropped them one by one, so page n read n pages (issue #38: 72 ms a page at 1,000,000 rows).
 */
export function olderThan(c: { at: number; id: number } | null): SQL | undefined {
  return c ? and(lte(auditEvents.at, c.at), or(lt(auditEvents.at, c.at), and(eq(auditEvents.at, c.at), lt(auditEvents.id, c.id)))) : undefined;
}

export function parseCursor(cursor: string | undefined): { at: number; id: number } | null {
  if (!cursor) return null;
  const [at, id] = cursor.split(".").map(Number);
  return Number.isSafeInteger(at) && Number.isSafeInteger(id) ? { at: at!, id: id! } : null;
}

export function cursorOf(row: { at: number; id: number }): string {
  return `${row.at}.${row.id}`;
}
