import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { execSql } from "../../../db/test-support/rows";
import { chainHash } from "./hash";
import { storedRow, tempDb, type TempDb } from "./test-support/audit";
import { verifyChain, verifyChainAsync } from "./verify";
import { AuditWriter } from "./writer";

let t: TempDb;
let w: AuditWriter;
beforeEach(async () => {
  t = tempDb();
  w = new AuditWriter(t.db, { stdout: false });
  for (let i = 1; i <= 10; i++) w.record({ type: "tool_call", actor: { id: "u1" }, tool: "read_file", details: { i } });
  await w.flush();
});
afterEach(async () => {
  await w.close();
  await t.cleanup();
});

const sql = (q: string, ...p: unknown[]) => execSql(t.db, q, ...p);
const row = (id: number) => storedRow(t.db, id);

describe("verifyChain", () => {
  it("reports an intact chain with its size and head", async () => {
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, count: 10, head: (await row(10)).hash, archivedCount: 0, startId: 1, keyedFrom: 1, unkeyed: 0 });
  });

  it("finds an edited row", async () => {
    await sql(`UPDATE audit_events SET outcome = 'allowed' WHERE id = 4`);
    expect(await verifyChain(t.db)).toMatchObject({ ok: false, brokenAt: 4, reason: "edited", found: (await row(4)).hash });
  });

  it("finds an edited row whose link was edited too", async () => {
    await sql(`UPDATE audit_events SET prev_hash = ? WHERE id = 6`, "f".repeat(64));
    expect(await verifyChain(t.db)).toMatchObject({ ok: false, brokenAt: 6, reason: "edited" });
  });

  it("finds a deleted row", async () => {
    await sql(`DELETE FROM audit_events WHERE id = 5`);
    const r = await verifyChain(t.db);
    expect(r).toMatchObject({ ok: false, brokenAt: 6, reason: "missing row", count: 4 });
    expect(r.ok === false && r.message).toMatch(/Row 5 is missing/);
  });

  it("finds the first row deleted", async () => {
    await sql(`DELETE FROM audit_events WHERE id = 1`);
    expect(await verifyChain(t.db)).toMatchObject({ ok: false, brokenAt: 2, reason: "missing row" });
  });

  it("finds a row inserted with a correctly computed hash (later rows renumbered)", async () => {
    // The attacker shifts rows 5..10 up by one and forges a row 5 that links to row 4.
    await sql(`UPDATE audit_events SET id = -id WHERE id >= 5`);
    await sql(`UPDATE audit_events SET id = -id + 1 WHERE id < 0`);
    const prev = (await row(4));
    const forged = {
      id: 5, at: prev.at, type: "login", actorId: "u1", actorEmail: null, sessionId: null, skill: null, layer: null,
      digest: null, tool: "read_file", model: null, mode: null, outcome: null, durationMs: null, details: null,
    };
    await sql(
      `INSERT INTO audit_events (id, at, type, actor_id, tool, prev_hash, hash) VALUES (5, ?, 'login', 'u1', 'read_file', ?, ?)`,
      prev.at,
      prev.hash,
      chainHash(prev.hash, forged),
    );
    // The forged row is self-consistent: only its neighbour gives it away.
    expect(chainHash((await row(5)).prevHash, (await row(5)))).toBe((await row(5)).hash);
    expect(await verifyChain(t.db)).toMatchObject({ ok: false, brokenAt: 5, reason: "inserted row" });
  });

  it("finds a row inserted with a made-up link", async () => {
    await sql(`UPDATE audit_events SET id = -id WHERE id >= 8`);
    await sql(`UPDATE audit_events SET id = -id + 1 WHERE id < 0`);
    await sql(`INSERT INTO audit_events (id, at, type, prev_hash, hash) VALUES (8, 0, 'login', ?, ?)`, "1".repeat(64), "2".repeat(64));
    expect(await verifyChain(t.db)).toMatchObject({ ok: false, brokenAt: 8, reason: "inserted row" });
  });

  it("finds a row that was edited and re-hashed (the next row no longer links to it)", async () => {
    const r3 = (await row(3));
    const edited = { ...r3, outcome: "allowed" };
    await sql(`UPDATE audit_events SET outcome = 'allowed', hash = ? WHERE id = 3`, chainHash(r3.prevHash, edited));
    // Keyed, the intact row 4 proves row 3 is the forgery (it used to be reported at row 4 as a mismatch).
    const r = await verifyChain(t.db);
    expect(r).toMatchObject({ ok: false, brokenAt: 3, reason: "replaced" });
    expect(r.ok === false && r.message).toMatch(/^Row 3 was replaced/);
  });

  it("reads the chain in pages (more rows than one page)", async () => {
    for (let i = 0; i < 4_500; i++) w.record({ type: "tool_call", details: { i } });
    await w.flush();
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, count: 4_510 });
    await sql(`UPDATE audit_events SET details = '{}' WHERE id = 4321`);
    expect(await verifyChain(t.db)).toMatchObject({ ok: false, brokenAt: 4321, reason: "edited" });
  });

  it("verifyChainAsync gives the same answers without blocking", async () => {
    expect(await verifyChainAsync(t.db)).toEqual(await verifyChain(t.db));
    await sql(`DELETE FROM audit_events WHERE id = 7`);
    expect(await verifyChainAsync(t.db)).toMatchObject({ ok: false, brokenAt: 8, reason: "missing row" });
  });
});

describe("rows reported by agents (source fields)", () => {
  const fromAgent = async () => {
    w.record({ type: "skill_activated", skill: "pdf-forms", source: { agent: "claude-code", version: "2.1.130", host: "laptop-7", user: "alice@x.io" } });
    w.record({ type: "tool_call", actor: { id: "u1" }, tool: "read_file" });
    await w.flush();
  };

  it("console rows and agent rows verify together, and an agent row keeps its source", async () => {
    await fromAgent();
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, count: 12 });
    expect((await row(11))).toMatchObject({ sourceAgent: "claude-code", sourceVersion: "2.1.130", sourceHost: "laptop-7", sourceUser: "alice@x.io" });
    expect((await row(12))).toMatchObject({ sourceAgent: null, sourceHost: null });
  });

  it("a changed source breaks the chain at that row", async () => {
    await fromAgent();
    await sql(`UPDATE audit_events SET source_host = 'other-host' WHERE id = 11`);
    expect(await verifyChain(t.db)).toMatchObject({ ok: false, brokenAt: 11, reason: "edited" });
  });

  it("a source removed from an agent row, or given to a console row, breaks the chain", async () => {
    await fromAgent();
    await sql(`UPDATE audit_events SET source_agent = NULL, source_version = NULL, source_host = NULL, source_user = NULL WHERE id = 11`);
    expect(await verifyChain(t.db)).toMatchObject({ ok: false, brokenAt: 11, reason: "edited" });
    await sql(`UPDATE audit_events SET source_agent = 'claude-code', source_version = '2.1.130', source_host = 'laptop-7', source_user = 'alice@x.io' WHERE id = 11`);
    await sql(`UPDATE audit_events SET source_agent = 'codex' WHERE id = 3`);
    expect(await verifyChain(t.db)).toMatchObject({ ok: false, brokenAt: 3, reason: "edited" });
  });
});
