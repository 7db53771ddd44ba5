// The audit list's later pages start where the cursor points, in an index: the database's own plan says so, on
// SQLite and PostgreSQL. Without a bound the index can seek to, page n walked the n-1 pages before it and dropped
// them row by row (on PostgreSQL 72 ms a page at 1,000,000 rows, issue #38). The plan is what is checked, not a time.
import { desc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbKind, postgresPool } from "../../../db/dialect";
import { auditEvents } from "../../../db/schema/audit";
import type { AuditEvent } from "../../runtime/audit/events";
import { toPendingFields } from "./event-row";
import { olderThan, whereOf, type AuditFilter } from "./filter";
import { listEvents } from "./queries";
import { ROW_FIELDS } from "./rows";
import { tempDb, type TempDb } from "./test-support/audit";
import { AuditWriter } from "./writer";

let t: TempDb;
const ROWS = 20_000;
const TYPES: AuditEvent["type"][] = ["tool_call", "skill_activated", "script_executed", "login"];

beforeAll(async () => {
  t = tempDb();
  const writer = new AuditWriter(t.db, { stdout: false });
  const start = Date.UTC(2026, 0, 1);
  const events: AuditEvent[] = Array.from({ length: ROWS }, (_, i) => ({
    type: TYPES[i % TYPES.length]!,
    at: new Date(start + i * 1000),
    actor: { id: `user-${i % 7}`, email: `user-${i % 7}@x.io` },
    skill: `skill-${i % 13}`,
  }));
  await writer.append(events.map(toPendingFields));
  await writer.close();
  // Fresh statistics, as a database that has lived a while has (autovacuum analyses on its own).
  if (dbKind(t.db) === "postgres") await postgresPool(t.db)!.query("ANALYZE audit_events");
  else t.db.$client.exec("ANALYZE");
}, 120_000);
afterAll(async () => {
  await t.cleanup();
});

/** The plan's lines for the list query after `cursor`, as the database prints them. */
async function planOf(filter: AuditFilter, cursor: { at: number; id: number }): Promise<string[]> {
  const q = t.db.select(ROW_FIELDS).from(auditEvents).where(whereOf(filter, { kind: "all" }, olderThan(cursor))).orderBy(desc(auditEvents.at), desc(auditEvents.id)).limit(51).toSQL();
  if (dbKind(t.db) === "postgres") {
    const r = await postgresPool(t.db)!.query<{ "QUERY PLAN": string }>(`EXPLAIN ${q.sql}`, q.params);
    return r.rows.map((row) => row["QUERY PLAN"]);
  }
  return (t.db.$client.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.params) as { detail: string }[]).map((row) => row.detail);
}

describe("audit pages after a cursor", () => {
  it("seek to the cursor's time in an index, with a type filter and without", async () => {
    // The cursor of a page deep in the log: half of it is newer.
    const page = await listEvents(t.db, {}, { kind: "all" }, { cursor: `${Date.UTC(2026, 0, 1) + (ROWS / 2) * 1000}.${ROWS / 2 + 1}`, limit: 50 });
    const last = page.events[page.events.length - 1]!;
    expect(page.events[0]!.id).toBe(ROWS / 2);
    for (const filter of [{}, { type: "tool_call" }] as AuditFilter[]) {
      const plan = (await planOf(filter, { at: last.at, id: last.id })).join("\n");
      // SQLite names the index's range (`at<?`); PostgreSQL an index condition on at.
      if (dbKind(t.db) === "postgres") expect(plan).toMatch(/Index Cond: .*\bat <= /);
      else expect(plan).toMatch(/USING (?:COVERING )?INDEX \w+ \([^)]*\bat<\?\)/);
    }
  });

  it("still break ties on the id: rows of the same millisecond are neither lost nor repeated", async () => {
    const at = Date.UTC(2026, 0, 1) + 5_000_000;
    const writer = new AuditWriter(t.db, { stdout: false });
    await writer.append(Array.from({ length: 5 }, (_, i) => toPendingFields({ type: "policy_changed", at: new Date(at), actor: { id: "tie" }, details: { i } })));
    await writer.close();
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const p = await listEvents(t.db, { type: "policy_changed" }, { kind: "all" }, { cursor, limit: 2 });
      seen.push(...p.events.map((e) => (e.details as { i: number }).i));
      cursor = p.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([4, 3, 2, 1, 0]);
  });
});
