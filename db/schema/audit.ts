import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { required, rowId } from "./columns";

// Append-only and hash-chained: each row carries the hash of the row before it and its own hash over a
// canonical serialisation, so an edited, removed or inserted row breaks the chain where verification looks.
export const auditEvents = sqliteTable(
  "audit_events",
  {
    id: rowId(),
    at: required.integer("at"), // epoch ms
    type: required.text("type"),
    actorId: text("actor_id"),
    actorEmail: text("actor_email"),
    sessionId: text("session_id"),
    skill: text("skill"),
    layer: text("layer"),
    digest: text("digest"),
    tool: text("tool"),
    model: text("model"),
    mode: text("mode"),
    outcome: text("outcome"),
    durationMs: integer("duration_ms"),
    details: text("details"), // JSON
    prevHash: required.text("prev_hash"),
    hash: required.text("hash"),
    // How `hash` was computed: 1 = plain sha256 (rows written before the chain was keyed), 2 = HMAC-SHA256
    // with the key in <home>/secrets. See server/services/audit/README.md.
    chain: integer("chain").notNull().default(1),
    // Where the event happened when it did not happen in the console: the agent that reported it over OTLP
    // (server/services/telemetry), its version, host and user. All null for the console's own events.
    // Covered by the hash when set (server/services/audit/hash.ts), so rows written before stay valid.
    sourceAgent: text("source_agent"),
    sourceVersion: text("source_version"),
    sourceHost: text("source_host"),
    sourceUser: text("source_user"),
    // The tenant the request acted for (issue #40), null when it named none. Covered by the hash when set.
    tenant: text("tenant"),
    // How a script run ended ("exit 0", "timeout", "refused", "unknown"; null for other types), derived when the row is
    // written from its type, outcome and details (server/services/audit/exit-status.ts) so the dashboard groups runs
    // without parsing each row's JSON. Not covered by the hash: rows written before the column still verify.
    exitStatus: text("exit_status"),
  },
  // The dashboard's summary reads only what an index holds, on both databases: the console's own events over a range
  // (source_agent, at, type) or (at, source_agent, type), whichever the planner takes (SQLite the first, PostgreSQL
  // the second), and the refusals by kind, skill and tool (outcome, at, ..., type). Without the trailing
  // columns each read every row of the range from the table: at 1,000,000 rows a week's refusals by kind, skill and
  // tool took 137 ms on PostgreSQL (9 ms covered), and the two refusal reads 40 + 65 ms on SQLite (2 + 14) (issue #38).
  (t) => [
    index("audit_at_idx").on(t.at, t.sourceAgent, t.type),
    // Script runs by exit status, for every scope (tenant admins' too), read from here alone (issue #38).
    index("audit_type_at_idx").on(t.type, t.at, t.skill, t.exitStatus, t.tenant),
    index("audit_skill_at_idx").on(t.skill, t.at),
    index("audit_actor_at_idx").on(t.actorId, t.at),
    index("audit_session_idx").on(t.sessionId, t.at),
    index("audit_outcome_at_idx").on(t.outcome, t.at, t.skill, t.tool, t.type),
    index("audit_source_at_idx").on(t.sourceAgent, t.at, t.type),
    index("audit_tenant_at_idx").on(t.tenant, t.at),
  ],
);

// Where retention cut the chain: the archived range, its file and the head hash the next row links to.
export const auditArchives = sqliteTable("audit_archives", {
  id: rowId(),
  firstId: required.integer("first_id"),
  lastId: required.integer("last_id"),
  count: required.integer("count"),
  headHash: required.text("head_hash"),
  file: required.text("file"),
  archivedAt: required.integer("archived_at"),
});

export type AuditEventRow = typeof auditEvents.$inferSelect;
