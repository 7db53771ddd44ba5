// Where the audited events came from: the console itself, or an agent reporting over OTLP (server/services/
// telemetry), with how many machines and people each agent reported from. For the dashboard's source chart
// and its source filter ("Console", "Console playground" vs "Claude Code on 12 machines").
import { count, countDistinct, inArray, isNotNull, isNull, sql } from "drizzle-orm";
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
  // The console's own rows (no source agent), split by what they are as filter.ts's source filter splits them: its
  // playground's turns and the rest, counted in one pass with no grouping, from an index that holds source_agent and
  // type. A GROUP BY over (agent, playground) sorted the week's 233,000 rows to make two groups (SQLite: 363 ms at
  // 1,000,000 rows, issue #38).
  const playground = inArray(auditEvents.type, [...PLAYGROUND_EVENT_TYPES]);
  const own = (
    await db
      .select({ all: count(), playground: sql<number>`count(*) filter (where ${playground})`.mapWith(Number) })
      .from(auditEvents)
      .where(whereOf(base, scope, isNull(auditEvents.sourceAgent)))
  )[0]!;
  // Agents' rows by agent, with how many hosts and people each reported from: only their rows are visited.
  const agents = await db
    .select({ agent: auditEvents.sourceAgent, n: count(), hosts: countDistinct(auditEvents.sourceHost), users: countDistinct(auditEvents.sourceUser) })
    .from(auditEvents)
    .where(whereOf(base, scope, isNotNull(auditEvents.sourceAgent)))
    .groupBy(auditEvents.sourceAgent);
  const rows: SourceCount[] = [
    { source: CONSOLE_SOURCE, n: own.all - own.playground, hosts: 0, users: 0 },
    { source: PLAYGROUND_SOURCE, n: own.playground, hosts: 0, users: 0 },
    ...agents.map((a) => ({ source: a.agent!, n: a.n, hosts: a.hosts, users: a.users })),
  ].filter((r) => r.n > 0);
  rows.sort((a, b) => b.n - a.n || (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
  return rows;
}
