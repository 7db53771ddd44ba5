// Where the audited events came from: the console itself, or an agent reporting over OTLP (server/services/
// telemetry), with how many machines and people each agent reported from. For the dashboard's source chart
// and its source filter ("Console", "Console playground" vs "Claude Code on 12 machines").
import { and, count, countDistinct, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { auditEvents } from "../../../db/schema/audit";
import { PLAYGROUND_EVENT_TYPES } from "../../domain/audit-events";
import { CONSOLE_SOURCE, PLAYGROUND_SOURCE } from "../../domain/audit-filter-keys";
import { whereOf, type AuditFilter, type AuditScope } from "./filter";
import { flushAudit } from "./sink";

export interface SourceCount {
  /** "console", "playground", or the agent's name as stored in source_agent. */
  source: string;
  n: number;
  /** Distinct hosts and users the agent reported (0 for the console). */
  hosts: number;
  users: number;
}

/** Event counts by source, most first (the source filter itself is ignored, so every source stays listed). */
export async function eventsBySource(db: Db, filter: AuditFilter, scope: AuditScope): Promise<SourceCount[]> {
  await flushAudit(db);
  const base = { ...filter, source: undefined };
  // Counts first (no row needs reading beyond what the filter does); distinct hosts and users only over agents'
  // rows, so the console's own (usually most) rows are not visited for them.
  // The console's rows split by what they are: its playground's turns, and the rest (as filter.ts's source filter splits them).
  const playground = sql<number>`${and(isNull(auditEvents.sourceAgent), inArray(auditEvents.type, [...PLAYGROUND_EVENT_TYPES]))}`;
  const counts = await db
    .select({ agent: auditEvents.sourceAgent, playground, n: count() })
    .from(auditEvents)
    .where(whereOf(base, scope))
    // By position: PostgreSQL takes the expression's list of types, bound again in a GROUP BY, for another
    // expression than the selected one (other parameters), and refuses the query.
    .groupBy(sql`1`, sql`2`);
  const reach = new Map(
    (await db
      .select({ agent: auditEvents.sourceAgent, hosts: countDistinct(auditEvents.sourceHost), users: countDistinct(auditEvents.sourceUser) })
      .from(auditEvents)
      .where(whereOf(base, scope, isNotNull(auditEvents.sourceAgent)))
      .groupBy(auditEvents.sourceAgent))
      .map((r) => [r.agent, r]),
  );
  const rows: SourceCount[] = counts.map((c) => ({
    source: c.agent ?? (c.playground ? PLAYGROUND_SOURCE : CONSOLE_SOURCE),
    n: c.n,
    hosts: c.agent ? (reach.get(c.agent)?.hosts ?? 0) : 0,
    users: c.agent ? (reach.get(c.agent)?.users ?? 0) : 0,
  }));
  rows.sort((a, b) => b.n - a.n || (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
  return rows;
}
