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
  const rows = db.$client
    .prepare(
      `SELECT COALESCE(source_agent, ?) AS source, COUNT(*) AS n, COUNT(DISTINCT source_host) AS hosts, COUNT(DISTINCT source_user) AS users
       FROM audit_events ${w.sql} GROUP BY source_agent ORDER BY n DESC, source`,
    )
    .all(CONSOLE_SOURCE, ...w.params) as SourceCount[];
  return rows;
}
