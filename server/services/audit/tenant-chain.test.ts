// The tenant of an audit row (issue #40) is covered by the keyed chain: a tenant admin reads only rows of their
// tenants, so moving a row to another tenant with SQL must show at verification, and rows without a tenant keep
// the serialisation they always had.
import { afterEach, beforeEach, expect, it } from "vitest";
import { execSql } from "../../../db/test-support/rows";
import { canonical } from "./hash";
import { storedRow, tempDb, type TempDb } from "./test-support/audit";
import { verifyChain } from "./verify";
import { AuditWriter } from "./writer";

let t: TempDb;
let w: AuditWriter;
beforeEach(async () => {
  t = tempDb();
  w = new AuditWriter(t.db, { stdout: false });
  w.record({ type: "tool_call", actor: { id: "u1" }, outcome: "allowed" });
  w.record({ type: "skill_activated", actor: { id: "u1" }, skill: "acme-ledger", outcome: "ok", tenant: "acme" });
  w.record({ type: "agent_tool_result", actor: { id: "u1" }, outcome: "ok", tenant: "acme", source: { agent: "claude-code" } });
  await w.flush();
});
afterEach(async () => {
  await w.close();
  await t.cleanup();
});

it("rows with a tenant verify; a row without one serialises as before", async () => {
  expect(await verifyChain(t.db)).toMatchObject({ ok: true, count: 3 });
  expect((await storedRow(t.db, 2)).tenant).toBe("acme");
  expect(JSON.parse(canonical((await storedRow(t.db, 1))))).toHaveLength(15);
  expect(JSON.parse(canonical((await storedRow(t.db, 2)))).at(-1)).toBe("acme");
});

for (const [what, q] of [
  ["moved to another tenant", `UPDATE audit_events SET tenant = 'globex' WHERE id = 2`],
  ["taken out of its tenant", `UPDATE audit_events SET tenant = NULL WHERE id = 3`],
  ["put into a tenant", `UPDATE audit_events SET tenant = 'acme' WHERE id = 1`],
] as const) {
  it(`a row ${what} with SQL breaks the chain at that row`, async () => {
    await execSql(t.db, q);
    const r = await verifyChain(t.db);
    expect(r.ok).toBe(false);
    expect(r).toMatchObject({ brokenAt: Number(/id = (\d)/.exec(q)![1]) });
  });
}
