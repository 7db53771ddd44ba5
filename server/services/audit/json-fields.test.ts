// The audit's figures read fields of each row's details (JSON text): an agent's counter point counts details.count
// activations, a script run ends by details.exitCode or details.timedOut. On PostgreSQL a row whose text does not
// hold the key in quotes is answered as absent without parsing it (db/dialect.ts); these rows name the keys in every
// other place a text can: as a string value, inside a string, as a field of another type, nested one level down.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEvent } from "../../runtime/audit/events";
import { countActivations, scriptRunsByExitStatus, timeSeries, topSkillsByActivation } from "./queries";
import { tempDb, type TempDb } from "./test-support/audit";
import { AuditWriter } from "./writer";

let t: TempDb;
const at = new Date(Date.UTC(2026, 3, 1, 10));
const all = { kind: "all" } as const;

const activation = (details?: Record<string, unknown>): AuditEvent => ({ type: "skill_activated", at, actor: { id: "a" }, skill: "pdf", details });
const scriptRun = (details?: Record<string, unknown>): AuditEvent => ({ type: "script_executed", at, actor: { id: "a" }, skill: "pdf", details });

beforeAll(async () => {
  t = tempDb();
  const w = new AuditWriter(t.db, { stdout: false });
  w.recordMany([
    activation({ count: 5 }), // an agent's counter point: five
    activation({ note: "count" }), // the key's name as a value: one
    activation({ note: 'say "count": 9' }), // inside a string: one
    activation({ count: "7" }), // a string, not a number: one
    activation({ inner: { count: 4 } }), // nested, not the row's own field: one
    activation(), // no details: one
    scriptRun({ exitCode: 0 }),
    scriptRun({ exitCode: 3, timedOut: false }),
    scriptRun({ note: "exitCode timedOut" }),
    scriptRun({ timedOut: true, exitCode: 137 }),
    scriptRun({ inner: { exitCode: 1 } }),
  ]);
  await w.close();
});
afterAll(() => t.cleanup());

describe("fields of the audit's details", () => {
  it("count activations by the counter's own count field only", async () => {
    expect(await countActivations(t.db, {}, all)).toBe(10);
    expect(await topSkillsByActivation(t.db, {}, all)).toEqual([{ skill: "pdf", n: 10 }]);
    const series = await timeSeries(t.db, {}, all, "hour");
    expect(series.points.find((p) => p.type === "skill_activated")?.n).toBe(10);
  });

  it("tell script runs apart by their own exit code and time-out fields only", async () => {
    const runs = await scriptRunsByExitStatus(t.db, {}, all);
    expect(Object.fromEntries(runs.map((r) => [r.status, r.n]))).toEqual({ "exit 0": 1, "exit 3": 1, timeout: 1, unknown: 2 });
  });
});
