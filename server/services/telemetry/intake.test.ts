// The receiver's logic against a real database with a long audit behind it: Codex's cumulative counter needs the
// value its series last recorded for every point of every export; that lookup must not read the skill's whole
// history each time, nor cost a round trip per point.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AuditSink } from "../../runtime/audit/events";
import { auditSinkFor, flushAudit } from "../audit";
import { selectSql } from "../../../db/test-support/rows";
import { countStatements } from "../../../db/test-support/statements";
import { tempDb } from "../../test-support/temp-db";
import { countActivations } from "../audit/queries";
import { ingest } from "./intake";
import pg from "pg";
import { postgresDb, type Db } from "../../../db/client";
import { postgresPool } from "../../../db/dialect";
import { describeOnPostgres } from "../../test-support/needs";

process.env.OMNIFORGE_AUDIT_STDOUT = "0";

let t: ReturnType<typeof tempDb>;
beforeEach(() => {
  t = tempDb();
});
afterEach(async () => {
  await auditSinkFor(t.db).close();
  await t.cleanup();
});

const principal = { tokenId: "t1", tokenName: "codex fleet", userId: null, email: null, role: "viewer" as const, scopes: ["telemetry:write" as const] };
const attr = (key: string, stringValue: string) => ({ key, value: { stringValue } });

/** One Codex export: the cumulative count of pdf-forms injections since its process started. */
function codexExport(startMs: number, value: number): Uint8Array {
  const point = { attributes: [attr("skill", "pdf-forms"), attr("status", "ok")], startTimeUnixNano: `${startMs}000000`, timeUnixNano: `${Date.now()}000000`, asInt: String(value) };
  const metric = { name: "codex.skill.injected", sum: { aggregationTemporality: 2, isMonotonic: true, dataPoints: [point] } };
  const body = { resourceMetrics: [{ resource: { attributes: [attr("service.name", "codex_cli_rs"), attr("host.name", "box")] }, scopeMetrics: [{ metrics: [metric] }] }] };
  return new TextEncoder().encode(JSON.stringify(body));
}

describe("Codex's cumulative counter over a long audit", () => {
  it("each export reads the rows since its series started, not the skill's 100,000 earlier activations", async () => {
    const sink = auditSinkFor(t.db);
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (let i = 0; i < 100_000; i++) {
      sink.record({ type: "skill_activated", at: hourAgo, actor: { id: "u1" }, skill: "pdf-forms", outcome: "ok", source: { agent: "claude-code", host: `m${i % 50}` } });
    }
    flushAudit(t.db);
    const send = async (start: number, value: number) => (await ingest(t.db, sink, { signal: "metrics", encoding: "json", bytes: codexExport(start, value), principal })).accepted;
    const began = performance.now();
    let written = 0;
    // Thirty Codex processes (each a new series), each exporting twice: 1, then 3 injections in all.
    for (let i = 0; i < 30; i++) {
      const start = Date.now() - 1_000 - i;
      written += (await send(start, 1)) + (await send(start, 3));
    }
    const took = performance.now() - began;
    // Each export is one row (the second counts 2 injections in it).
    expect(written).toBe(30 * 2);
    // Reading back through 100,000 rows per point took 1.6 s here; along (skill, at) from the series' start, 30 ms.
    // A figure, not a gate (timings belong in npm run bench); map.test.ts checks the lookup's bound itself.
    console.log(`[measure] 60 Codex exports over 100,000 audit rows: ${took.toFixed(0)} ms`);
  });
});

describe("a batch at the request's cap", () => {
  it("is mapped and written a slice at a time, so other requests get the event loop between slices (issue 35 item 5)", async () => {
    const sink = auditSinkFor(t.db);
    // A turn of the event loop is where a health check or a page gets answered: count them while the batch goes in.
    let turn = 0;
    let ticking = true;
    const tick = () => {
      turn++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const perTurn = new Map<number, number>();
    const counted: AuditSink = {
      record: (e) => {
        perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
        sink.record(e);
      },
    };
    const now = Date.now();
    const points = Array.from({ length: 10_000 }, (_, i) => ({ attributes: [attr("skill", `s-${i}`)], startTimeUnixNano: `${now - 5_000}000000`, timeUnixNano: `${now}000000`, asInt: "3" }));
    const body = { resourceMetrics: [{ resource: { attributes: [attr("service.name", "codex_cli_rs")] }, scopeMetrics: [{ metrics: [{ name: "codex.skill.injected", sum: { aggregationTemporality: 2, isMonotonic: true, dataPoints: points } }] }] }] };
    const result = await ingest(t.db, counted, { signal: "metrics", encoding: "json", bytes: new TextEncoder().encode(JSON.stringify(body)), principal });
    ticking = false;
    expect(result.accepted).toBe(10_000);
    // All 10,000 rows were written in one turn: 0.4-1.4 s in which the console answered nothing else.
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(1_000);
    await flushAudit(t.db);
    const rows = await selectSql(t.db, "SELECT count(*) AS n FROM audit_events WHERE type = 'skill_activated'");
    expect(rows).toEqual([{ n: 10_000 }]);
    expect(await countActivations(t.db, {}, { kind: "all" })).toBe(30_000);
  });
});

describe("the lookups of a batch of cumulative points", () => {
  /** One export of Codex's counter: a point per [skill, value], all from one process started 5 s ago. */
  const exportOf = (start: number, points: [string, number][]) => {
    const dataPoints = points.map(([skill, value]) => ({ attributes: [attr("skill", skill)], startTimeUnixNano: `${start}000000`, timeUnixNano: `${Date.now()}000000`, asInt: String(value) }));
    const metric = { name: "codex.skill.injected", sum: { aggregationTemporality: 2, isMonotonic: true, dataPoints } };
    return new TextEncoder().encode(JSON.stringify({ resourceMetrics: [{ resource: { attributes: [attr("service.name", "codex_cli_rs")] }, scopeMetrics: [{ metrics: [metric] }] }] }));
  };

  it("are one statement per slice of 500 points, not one per point, and each series still gets its own last value (issue #38)", async () => {
    const sink = auditSinkFor(t.db);
    const start = Date.now() - 5_000;
    const skills = Array.from({ length: 1_000 }, (_, i) => `s-${i}`);
    const send = async (points: [string, number][]) => {
      // Lookups are the statements that read a series' last cumulative value; the audit's inserts never name it.
      const lookups = countStatements(t.db, /cumulative/);
      try {
        const result = await ingest(t.db, sink, { signal: "metrics", encoding: "json", bytes: exportOf(start, points), principal });
        return { accepted: result.accepted, lookups: lookups.count };
      } finally {
        lookups.stop();
      }
    };
    // 1,000 points, 1,000 series: two slices. One statement each; a statement per point made this 1,000.
    expect(await send(skills.map((s) => [s, 5]))).toEqual({ accepted: 1_000, lookups: 2 });
    // The same series again, in another order, with a series repeated and one new: each point becomes its increase
    // over what its series held before this export (5), or its whole value when the series is new.
    const again: [string, number][] = [...skills.slice(0, 400).map((s, i): [string, number] => [s, 5 + (i % 3)]).reverse(), ["s-0", 9], ["new", 4]];
    expect(await send(again)).toEqual({ accepted: again.filter(([, v]) => v > 5).length + 1, lookups: 1 });
    await flushAudit(t.db);
    const rows = await selectSql<{ skill: string; details: string }>(t.db, "SELECT skill, details FROM audit_events WHERE type = 'skill_activated' ORDER BY id");
    const counts = rows.slice(1_000).map((r) => [r.skill, (JSON.parse(r.details) as { count?: number }).count ?? 1]);
    const expected = again.filter(([s, v]) => v > 5 || s === "new").map(([s, v]) => [s, s === "new" ? v : v - 5]);
    expect(counts).toEqual(expected);
  });
});

describeOnPostgres("one series exported through two servers at the same instant", "two servers share one PostgreSQL; SQLite is one console", () => {
  const dbs: Db[] = [];
  afterEach(async () => {
    for (const db of dbs.splice(0)) {
      await auditSinkFor(db).close();
      await postgresPool(db)!.end();
    }
  });

  /** Backends of this database waiting for an advisory lock (the audit chain's, or the counters'). */
  async function waiting(client: pg.Client, n: number): Promise<void> {
    for (;;) {
      const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
      if (Number(rows[0]!.n) >= n) return;
      await new Promise((r) => setImmediate(r));
    }
  }

  it("counts each increase once: the second compares with what the first wrote, not with the value both read", async () => {
    // Two servers: each its own pool and audit writer on the one database.
    const [a, b] = [postgresDb(t.url!, t.dir), postgresDb(t.url!, t.dir)];
    dbs.push(a, b);
    const start = Date.now() - 5_000;
    const send = (db: Db, value: number) => ingest(db, auditSinkFor(db), { signal: "metrics", encoding: "json", bytes: codexExport(start, value), principal });
    expect((await send(a, 5)).accepted).toBe(1);

    // The chain's lock held elsewhere, so each server's write waits at it once it has read the series' last value.
    const holder = new pg.Client({ connectionString: t.url! });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT pg_advisory_xact_lock(hashtext('omniforge:audit-chain'))");
      const first = send(a, 10);
      await waiting(holder, 1);
      const second = send(b, 15);
      // B waits too: at the chain's lock having read 5 as A did, or, with the counters' lock, before reading.
      await waiting(holder, 2);
      await holder.query("COMMIT");
      await Promise.all([first, second]);
    } finally {
      await holder.end();
    }
    // 5, then 10, then 15 injections since the process started: 15 activations in all, not 20.
    expect(await countActivations(a, {}, { kind: "all" })).toBe(15);
  });
});
