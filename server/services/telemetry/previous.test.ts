// The lookup of many counter series at once, on a real database: each series gets its own last value, and each
// lookup reads along (skill, at) from the series' start, whatever the database has learned about the table.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { dbKind } from "../../../db/dialect";
import { rawRows } from "../../../db/raw";
import { useTestHome } from "../../test-support/test-home";
import { tempDb } from "../../test-support/temp-db";
import { auditSinkFor, flushAudit } from "../audit";
import { lastValuesQuery, previousValues } from "./previous";

process.env.OMNIFORGE_AUDIT_STDOUT = "0";

describe("the last values of many series", () => {
  const t = useTestHome(() => {
    const d = tempDb();
    return { ...d, cleanup: async () => (await auditSinkFor(d.db).close(), await d.cleanup()) };
  });
  const hourAgo = Date.now() - 3_600_000;

  /** `n` skills, each with two series (two agent processes) recorded `rounds` times, all of it just now. */
  async function recorded(n: number, rounds: number) {
    const sink = auditSinkFor(t.db);
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < n; i++) {
        for (const p of [0, 1]) sink.record({ type: "skill_activated", actor: { id: "u1" }, skill: `s-${i}`, outcome: "ok", details: { series: `p${p}|s-${i}`, cumulative: 10 * r + p } });
      }
    }
    await flushAudit(t.db);
  }

  it("are each series' newest value, null for a series with none or none since its start, in the order asked", async () => {
    await recorded(3, 2);
    // Another event type that carries the same field is no activation and never counts.
    auditSinkFor(t.db).record({ type: "tool_call", actor: { id: "u1" }, skill: "s-0", details: { series: "p1|s-0", cumulative: 99 } });
    await flushAudit(t.db);
    const lookups = [
      { series: "p1|s-0", skill: "s-0", since: hourAgo },
      { series: "p0|s-2", skill: "s-2", since: null },
      { series: "p0|s-9", skill: "s-9", since: hourAgo },
      { series: "p0|s-1", skill: "s-1", since: Date.now() + 60_000 },
      { series: "p1|s-0", skill: "s-0", since: hourAgo },
    ];
    expect(await previousValues(t.db, lookups)).toEqual([11, 10, null, null, 11]);
  });

  it("read along (skill, at), also on a table the database has not analyzed yet", async () => {
    // Without statistics PostgreSQL chose (type, at, skill) for the lookup and walked every activation since the
    // series' start, for each of the slice's series: 846 ms a slice here instead of 23.
    await recorded(5_000, 2);
    const query = lastValuesQuery(
      t.db,
      Array.from({ length: 500 }, (_, i) => ({ series: `p1|s-${i}`, skill: `s-${i}`, since: hourAgo })),
    );
    const plan = await rawRows<Record<string, string>>(t.db, dbKind(t.db) === "sqlite" ? sql`EXPLAIN QUERY PLAN ${query}` : sql`EXPLAIN ${query}`);
    const text = plan.map((row) => Object.values(row).at(-1)).join("\n");
    expect(text).toContain("audit_skill_at_idx");
    expect(text).not.toMatch(/audit_type_at_idx|audit_at_idx/);
  });
});
