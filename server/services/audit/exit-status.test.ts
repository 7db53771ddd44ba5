// A script run's exit status is stored with the row (exit-status.ts), and the migration that added the column computed
// it for the rows already there. Both must say what the dashboard said when it read each row's details: the same
// cases as json-fields.test.ts, rows whose details are not JSON objects, and a chain that still verifies.
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrationsFolder } from "../../../db/client";
import { dbKind } from "../../../db/dialect";
import { execSql, selectSql } from "../../../db/test-support/rows";
import type { AuditEvent } from "../../runtime/audit/events";
import { exitStatusOf } from "./exit-status";
import { scriptRunsByExitStatus } from "./queries";
import { chainVerifies, tempDb, type TempDb } from "./test-support/audit";
import { AuditWriter } from "./writer";

let t: TempDb;
const at = new Date(Date.UTC(2026, 3, 1, 10));

const run = (details?: Record<string, unknown>, outcome: AuditEvent["outcome"] = "ok"): AuditEvent => ({ type: "script_executed", at, actor: { id: "a" }, skill: "pdf", outcome, details });

// Each event and the status a person reads on the dashboard for it.
const CASES: [AuditEvent, string | null][] = [
  [run({ exitCode: 0 }), "exit 0"],
  [run({ exitCode: 3, timedOut: false }, "failed"), "exit 3"],
  [run({ exitCode: -1 }, "failed"), "exit -1"],
  [run({ timedOut: true, exitCode: 137 }, "failed"), "timeout"],
  [run({ timedOut: true }, "refused"), "timeout"],
  [run({ exitCode: 1 }, "refused"), "refused"],
  [run(undefined, "refused"), "refused"],
  [run({ note: "exitCode timedOut" }), "unknown"],
  [run({ inner: { exitCode: 1 } }), "unknown"],
  [run({ exitCode: "7" }), "unknown"],
  [run({ exitCode: 2.5 }), "unknown"],
  [run({ exitCode: 12_345_678_901 }), "unknown"],
  [run({ timedOut: "true", exitCode: 4 }), "exit 4"],
  [run(), "unknown"],
  // Other types have none, whatever their details hold.
  [{ type: "tool_call", at, actor: { id: "a" }, tool: "bash", details: { exitCode: 0 } }, null],
  [{ type: "login", at, actor: { id: "a" }, outcome: "refused" }, null],
];

/** The statements of this dialect's exit-status migration that fill the column (not the column and index changes). */
function backfillStatements(): string[] {
  const dialect = dbKind(t.db);
  const dir = migrationsFolder(dialect);
  const file = fs.readdirSync(dir).find((f) => /_audit_exit_status\.sql$/.test(f))!;
  return fs
    .readFileSync(path.join(dir, file), "utf8")
    .split("--> statement-breakpoint")
    .filter((s) => !/^\s*(DROP INDEX|CREATE INDEX|ALTER TABLE)/.test(s));
}

async function backfill(): Promise<void> {
  await execSql(t.db, "UPDATE audit_events SET exit_status = NULL");
  for (const s of backfillStatements()) {
    if (dbKind(t.db) === "sqlite") t.db.run(sql.raw(s));
    else await (t.db as unknown as { execute(q: unknown): Promise<unknown> }).execute(sql.raw(s));
  }
}

const stored = () => selectSql<{ id: number; type: string; outcome: string | null; details: string | null; exit_status: string | null }>(t.db, "SELECT id, type, outcome, details, exit_status FROM audit_events ORDER BY id");

beforeAll(async () => {
  t = tempDb();
  const w = new AuditWriter(t.db, { stdout: false });
  w.recordMany(CASES.map(([e]) => e));
  await w.close();
});
afterAll(() => t.cleanup());

describe("a script run's exit status", () => {
  it("is stored with the row as the dashboard reads it", async () => {
    expect((await stored()).map((r) => r.exit_status)).toEqual(CASES.map(([, status]) => status));
    const runs = Object.fromEntries((await scriptRunsByExitStatus(t.db, {}, { kind: "all" })).map((r) => [r.status, r.n]));
    expect(runs).toEqual({ "exit 0": 1, "exit 3": 1, "exit -1": 1, "exit 4": 1, timeout: 2, refused: 2, unknown: 6 });
  });

  it("is computed by the migration for rows stored before the column, the same, and the chain still verifies", async () => {
    await backfill();
    const rows = await stored();
    expect(rows.map((r) => r.exit_status)).toEqual(CASES.map(([, status]) => status));
    for (const r of rows) expect(exitStatusOf(r)).toBe(r.exit_status);
    expect(await chainVerifies(t)).toMatchObject({ ok: true, count: CASES.length });
  });

  it("is unknown (or refused) in the migration for details that are not JSON objects, which fail nothing", async () => {
    const odd = ["not json", '{"exitCode": 4', '{"timedOut": true', "[1, 2]", '"exitCode"', "42", "null", '[{"exitCode": 1}]'];
    const ids = (await stored()).filter((r) => r.type === "script_executed").map((r) => r.id);
    for (const [i, details] of odd.entries()) await execSql(t.db, "UPDATE audit_events SET details = ? WHERE id = ?", details, ids[i]);
    await backfill();
    const rows = (await stored()).filter((r) => ids.slice(0, odd.length).includes(r.id));
    expect(rows.map((r) => r.exit_status)).toEqual(rows.map((r) => (r.outcome === "refused" ? "refused" : "unknown")));
    for (const r of rows) expect(exitStatusOf(r)).toBe(r.exit_status);
  });
});
