// What a refusal is, and how many there were, defined once for every screen (issue 41 item 5): the Overview's
// figure and its sentence, the audit page's refusals chart, and the table either link opens all count these rows.
// A refusal is any audit event whose outcome is "refused": a request a role may not make, a tool call or script
// a skill's rules refused, a sign-in turned away. "The last 24 hours" is the day up to the moment it was counted,
// and the Overview's link carries that exact window, so the table it opens holds exactly the rows it counted.
import { asc, count, desc } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { ascNullsFirst } from "../../../db/dialect";
import { auditEvents } from "../../../db/schema/audit";
import { whereOf, type AuditFilter, type AuditScope } from "./filter";
import { flushAudit } from "./sink";

export const DAY_MS = 86_400_000;

/** The 24 hours up to `now`, `now` included (an audit filter's `to` is exclusive). */
export function lastDay(now: number): { from: number; to: number } {
  return { from: now - DAY_MS, to: now + 1 };
}

// What was refused, in the words a figure uses ("3 requests, 1 tool call"); other kinds read as their type.
const KIND: Record<string, [one: string, many: string]> = {
  access_denied: ["request", "requests"],
  tool_restriction_violated: ["tool call", "tool calls"],
  script_read_blocked: ["script read", "script reads"],
  script_executed: ["script run", "script runs"],
  hook_executed: ["hook", "hooks"],
  login_failed: ["sign-in", "sign-ins"],
  password_changed: ["password change", "password changes"],
};
const kindOf = (type: string): [string, string] => KIND[type] ?? [type.replaceAll("_", " "), type.replaceAll("_", " ")];

export interface RefusalCounts {
  total: number;
  /** By event type, most first; the counts add up to `total`. */
  byKind: { type: string; one: string; many: string; n: number }[];
  /** By kind, skill and tool, most first; past `top` rows one "other" row keeps the sum equal to `total`. */
  bars: { label: string; n: number }[];
}

/** The refusals among the events a filter matches (a filter asking for another outcome has none). */
export async function refusalCounts(db: Db, filter: AuditFilter, scope: AuditScope, top = 10): Promise<RefusalCounts> {
  if (filter.outcome !== undefined && filter.outcome !== "refused") return { total: 0, byKind: [], bars: [] };
  await flushAudit(db);
  const where = whereOf({ ...filter, outcome: "refused" }, scope);
  const { type, skill, tool } = auditEvents;
  const kinds = await db.select({ type, n: count() }).from(auditEvents).where(where).groupBy(type).orderBy(desc(count()), asc(type));
  const total = kinds.reduce((a, k) => a + k.n, 0);
  const groups = await db
    .select({ type, skill, tool, n: count() })
    .from(auditEvents)
    .where(where)
    .groupBy(type, skill, tool)
    .orderBy(desc(count()), asc(type), ascNullsFirst(skill), ascNullsFirst(tool))
    .limit(top);
  const bars = groups.map((g) => ({ label: [kindOf(g.type)[1], g.skill, g.tool].filter(Boolean).join(" · "), n: g.n }));
  const shown = bars.reduce((a, b) => a + b.n, 0);
  if (shown < total) bars.push({ label: "other", n: total - shown });
  return { total, byKind: kinds.map((k) => ({ type: k.type, one: kindOf(k.type)[0], many: kindOf(k.type)[1], n: k.n })), bars };
}
