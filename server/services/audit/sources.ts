// Where the audited events came from: the console itself, or an agent reporting over OTLP (server/services/
// telemetry), with how many machines and people each agent reported from. For the dashboard's source chart
// and its source filter ("Console playground" vs "Claude Code on 12 machines").
import type { Db } from "../../../db/client";
import { CONSOLE_SOURCE } from "./filter-keys";
import { whereOf, type AuditFilter, type AuditScope } from "./filter";
import { flushAudit } from "./sink";

export interface SourceCount {
  /** "console", or the agent's name as stored in source_agent. */
  source: string;
  n: number;
  /** Distinct hosts and users the agent reported (0 for the console). */
  hosts: number;
  users: number;
}

/** Event counts by source, most first (the source filter itself is ignored, so every source stays listed). */
export function eventsBySource(db: Db, filter: AuditFilter, scope: AuditScope): SourceCount[] {
  flushAudit(db);
  const w = whereOf({ ...filter, source: undefined }, scope);
  // Counts first (no row needs reading beyond what the filter does); distinct hosts and users only over agents'
  // rows, so the console's own (usually most) rows are not visited for them.
  const counts = db.$client
    .prepare(`SELECT source_agent AS agent, COUNT(*) AS n FROM audit_events ${w.sql} GROUP BY source_agent`)
    .all(...w.params) as { agent: string | null; n: number }[];
  const wa = whereOf({ ...filter, source: undefined }, scope, ["source_agent IS NOT NULL"]);
  const reach = new Map(
    (
      db.$client
        .prepare(`SELECT source_agent AS agent, COUNT(DISTINCT source_host) AS hosts, COUNT(DISTINCT source_user) AS users FROM audit_events ${wa.sql} GROUP BY source_agent`)
        .all(...wa.params) as { agent: string; hosts: number; users: number }[]
    ).map((r) => [r.agent, r]),
  );
  const rows: SourceCount[] = counts.map((c) => ({
    source: c.agent ?? CONSOLE_SOURCE,
    n: c.n,
    hosts: c.agent ? (reach.get(c.agent)?.hosts ?? 0) : 0,
    users: c.agent ? (reach.get(c.agent)?.users ?? 0) : 0,
  }));
  rows.sort((a, b) => b.n - a.n || (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
  return rows;
}
