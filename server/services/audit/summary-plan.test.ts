// The audit dashboard's summary counts the refusals and the console's events by source from an index alone, on SQLite and
// PostgreSQL: the statements the services send are handed back to the database's EXPLAIN, and the plan must name a
// covering (SQLite) or index-only (PostgreSQL) scan of the index that holds every column they read. Before the
// indexes held `type` (and `source_agent`), each read every row of the range from the table: a week's refusals by
// kind, skill and tool at 1,000,000 rows took 137 ms on PostgreSQL, 9 ms covered (issue #38). The plan is what is
// checked, not a time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbKind, postgresPool } from "../../../db/dialect";
import { plansOf, readsOnly } from "../../../db/test-support/plans";
import type { AuditEvent } from "../../runtime/audit/events";
import { toPendingFields } from "./event-row";
import type { AuditFilter } from "./filter";
import { scriptRunsByExitStatus } from "./queries";
import { refusalCounts } from "./refusals";
import { eventsBySource } from "./sources";
import { describeOnPostgres } from "../../test-support/needs";
import { tempDb, type TempDb } from "./test-support/audit";
import { AuditWriter } from "./writer";

let t: TempDb;
const ROWS = 20_000;
const DAY = 86_400_000;
const start = Date.UTC(2026, 0, 1);
// Sixty days of events, so a week is a small part of the table (as on the dashboard, whose default is a week).
const week: AuditFilter = { from: start + 53 * DAY, to: start + 60 * DAY };
const TYPES: AuditEvent["type"][] = ["tool_call", "skill_activated", "script_executed", "tool_restriction_violated", "login"];

beforeAll(async () => {
  t = tempDb();
  const writer = new AuditWriter(t.db, { stdout: false });
  const events: AuditEvent[] = Array.from({ length: ROWS }, (_, i) => ({
    type: TYPES[i % TYPES.length]!,
    at: new Date(start + Math.floor((i / ROWS) * 60 * DAY)),
    actor: { id: `user-${i % 7}` },
    skill: `skill-${i % 13}`,
    tool: i % 3 ? "bash" : undefined,
    outcome: i % 17 === 0 ? "refused" : "ok",
    details: { exitCode: i % 3, ...(i % 11 === 0 ? { timedOut: true } : {}) },
    tenant: i % 2 ? "acme" : undefined,
    source: i % 4 === 0 ? { agent: "claude-code", host: `host-${i % 5}`, user: `dev-${i % 3}` } : undefined,
  }));
  await writer.append(events.map(toPendingFields));
  await writer.close();
  // The planners' view of a console that has lived a while. PostgreSQL's autovacuum gathers statistics and keeps the
  // visibility map (an index-only scan skips the table only for pages it marks all-visible). The console never runs
  // SQLite's ANALYZE, so SQLite plans without statistics, as here.
  if (dbKind(t.db) === "postgres") await postgresPool(t.db)!.query("VACUUM ANALYZE audit_events");
}, 120_000);
afterAll(async () => {
  await t.cleanup();
});

/** The statements `run` sends that read audit_events, each with the database's plan for it. */
const auditPlans = (run: () => Promise<unknown>) => plansOf(t.db, /audit_events/, run);

describe("the audit summary's counts", () => {
  it("count a week's refusals by kind, skill and tool from the outcome index alone", async () => {
    const counts = await refusalCounts(t.db, week, { kind: "all" });
    expect(counts.total).toBeGreaterThan(0);
    const plans = await auditPlans(() => refusalCounts(t.db, week, { kind: "all" }));
    expect(plans).toHaveLength(2); // by kind, then by kind, skill and tool
    for (const p of plans) expect(p.plan).toMatch(readsOnly(t.db, "audit_outcome_at_idx"));
  });

  it("count a week's events of the console and its playground from an index alone, in one pass", async () => {
    const sources = await eventsBySource(t.db, week, { kind: "all" });
    expect(sources.map((s) => s.source).sort()).toEqual(["claude-code", "console", "playground"]);
    const plans = await auditPlans(() => eventsBySource(t.db, week, { kind: "all" }));
    // The first statement counts the console's own rows (most of them); the second reads only agents' rows, for
    // their hosts and users. SQLite takes (source_agent, at, type), PostgreSQL (at, source_agent, type).
    expect(plans).toHaveLength(2);
    expect(plans[0]!.plan).toMatch(readsOnly(t.db, "audit_(?:source_)?at_idx"));
    // Two groups (console, playground) are two counts of one pass: nothing sorted or hashed into groups.
    expect(plans[0]!.plan).not.toMatch(dbKind(t.db) === "postgres" ? /Sort|HashAggregate|GroupAggregate/ : /TEMP B-TREE/);
  });
});

describe("the audit summary's script runs", () => {
  // Reading details.exitCode from each row's JSON took 120 ms on SQLite and 188 ms on PostgreSQL for a week at
  // 1,000,000 rows: the status stored with the row is read from the (type, at, ...) index instead.
  it.each([
    ["every event", { kind: "all" }],
    ["a tenant admin's", { kind: "tenants", tenants: ["acme"] }],
  ] as const)("count a week's runs by exit status from the type index alone, for %s", async (_, scope) => {
    const runs = await scriptRunsByExitStatus(t.db, week, scope);
    expect(runs.map((r) => r.status)).toEqual(expect.arrayContaining(["exit 0", "exit 1", "exit 2", "timeout", "refused"]));
    const plans = await auditPlans(() => scriptRunsByExitStatus(t.db, week, scope));
    expect(plans).toHaveLength(1);
    expect(plans[0]!.plan).toMatch(readsOnly(t.db, "audit_type_at_idx"));
  });
});

describeOnPostgres("the audit table on PostgreSQL", "autovacuum is PostgreSQL's: npm test's postgres part runs it", () => {
  it("is visited by autovacuum after 1% new rows, not 20%, so the newest rows the dashboard reads stay all-visible", async () => {
    const r = await postgresPool(t.db)!.query<{ reloptions: string[] | null }>("SELECT reloptions FROM pg_class WHERE relname = 'audit_events'");
    expect(r.rows[0]!.reloptions).toContain("autovacuum_vacuum_insert_scale_factor=0.01");
  });
});
