// The tamper cases of a keyed, checkpointed chain, done as an attacker with write access to the database
// would do them: with SQL on the real database (SQLite's file or PostgreSQL), with or without the keys from secrets/.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { dbKind } from "../../../db/dialect";
import { execSql, selectSql } from "../../../db/test-support/rows";
import { chainHash, chainMac, GENESIS_HASH } from "./hash";
import { loadAuditKeys } from "./keys";
import { storedRow, tempDb, type TempDb } from "./test-support/audit";
import { verifyChain } from "./verify";
import { AuditWriter } from "./writer";

let t: TempDb;
let w: AuditWriter;

/** Writes `n` events in batches of 10: with a checkpoint every 50 rows that puts them at rows 10, 60, 110... */
async function writeRows(n: number) {
  for (let i = 0; i < n; i++) {
    w.record({ type: "tool_call", actor: { id: "u1" }, tool: "read_file", outcome: "allowed", details: { i } });
    if (i % 10 === 9) await w.flush();
  }
  await w.flush();
}

beforeEach(async () => {
  t = tempDb();
  w = new AuditWriter(t.db, { stdout: false, checkpointEveryRows: 50 });
  await writeRows(300);
});
afterEach(async () => {
  await w.close();
  await t.cleanup();
});

const sql = (q: string, ...p: unknown[]) => execSql(t.db, q, ...p);
const row = (id: number) => storedRow(t.db, id);
const maxId = async () => (await selectSql<{ m: number }>(t.db, `SELECT MAX(id) AS m FROM audit_events`))[0]!.m;
const checkpointFile = () => path.join(t.dir, "checkpoints.jsonl");
const checkpointRows = () =>
  fs.readFileSync(checkpointFile(), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { seq: number; rowId: number; hash: string });

/**
 * Re-hashes every row from `fromId` on, each linked to the one before: `key` null means the plain sha256
 * (chain 1, what the old code wrote), a Buffer an HMAC with that key (a fresh key, or the stolen one).
 */
async function rehashFrom(fromId: number, key: Buffer | null) {
  let prev = fromId === 1 ? GENESIS_HASH : (await row(fromId - 1)).hash;
  for (let id = fromId, last = await maxId(); id <= last; id++) {
    const r = await row(id);
    const hash = key ? chainMac(key, prev, r) : chainHash(prev, r);
    await sql(`UPDATE audit_events SET prev_hash = ?, hash = ?, chain = ? WHERE id = ?`, prev, hash, key ? 2 : 1, id);
    prev = hash;
  }
}

/** Appends forged rows after the head, linked correctly, hashed with `key` (or sha256). */
async function appendForged(count: number, key: Buffer | null) {
  for (let k = 0; k < count; k++) {
    const prev = await row(await maxId());
    const id = prev.id + 1;
    const fields = { ...prev, id, type: "login", outcome: "ok", details: null };
    const hash = key ? chainMac(key, prev.hash, fields) : chainHash(prev.hash, fields);
    await sql(
      `INSERT INTO audit_events (id, at, type, actor_id, tool, outcome, prev_hash, hash, chain) VALUES (?, ?, 'login', ?, ?, 'ok', ?, ?, ?)`,
      id, prev.at, prev.actorId, prev.tool, prev.hash, hash, key ? 2 : 1,
    );
  }
}

describe("a keyed chain under attack", () => {
  it("keys rows from the first write and keeps the keys out of the database, in secrets/ with mode 0600", async () => {
    const keys = loadAuditKeys(t.db);
    expect(keys.keyedFrom).toBe(1);
    for (const f of ["audit-hmac-key", "audit-checkpoint-key.pem", "audit-keyed-from", "audit-checkpoint-head"]) {
      expect(fs.statSync(path.join(t.dir, "secrets", f)).mode & 0o777).toBe(0o600);
    }
    const key = fs.readFileSync(path.join(t.dir, "secrets", "audit-hmac-key"), "utf8").trim();
    if (dbKind(t.db) === "sqlite") expect(fs.readFileSync(t.file).includes(Buffer.from(key))).toBe(false);
    expect(JSON.stringify(await selectSql(t.db, "SELECT * FROM audit_events")).includes(key)).toBe(false);
    const r = await verifyChain(t.db);
    expect(r).toMatchObject({ ok: true, count: 300, keyedFrom: 1, unkeyed: 0 });
    expect(r.checkpoints).toMatchObject({ total: 6, matching: 6, holds: { seq: 6, rowId: 260 }, unanchored: 40, problems: [] });
    expect(checkpointRows().map((c) => c.rowId)).toEqual([10, 60, 110, 160, 210, 260]);
  });

  it("edit: row 30's content changed, its hash left as it was", async () => {
    await sql(`UPDATE audit_events SET outcome = 'refused' WHERE id = 30`);
    const r = await verifyChain(t.db);
    expect(r).toMatchObject({ ok: false, brokenAt: 30, reason: "edited", count: 29 });
    expect(r.ok === false && r.message).toMatch(/^Row 30 was changed after it was written/);
  });

  it("a script run's exit status edited (it is outside the hash): verification computes it again and names the row", async () => {
    w.record({ type: "script_executed", actor: { id: "u1" }, skill: "pdf", outcome: "failed", details: { exitCode: 3 } });
    await w.flush();
    const id = await maxId();
    expect(await verifyChain(t.db)).toMatchObject({ ok: true });
    await sql(`UPDATE audit_events SET exit_status = 'exit 0' WHERE id = ?`, id);
    const r = await verifyChain(t.db);
    expect(r).toMatchObject({ ok: false, brokenAt: id, reason: "status altered", expected: "exit 3", found: "exit 0" });
    // One written by a server of the previous version has none, and is no edit.
    await sql(`UPDATE audit_events SET exit_status = NULL WHERE id = ?`, id);
    expect(await verifyChain(t.db)).toMatchObject({ ok: true });
  });

  it("replace: row 30 forged with a hash computed without the key", async () => {
    const r30 = (await row(30));
    const forged = { ...r30, outcome: "refused" };
    await sql(`UPDATE audit_events SET outcome = 'refused', hash = ? WHERE id = 30`, chainMac(randomBytes(32), r30.prevHash, forged));
    const r = await verifyChain(t.db);
    // Expected is the original hash: the one the intact row 31 still links to.
    expect(r).toMatchObject({ ok: false, brokenAt: 30, reason: "replaced", expected: r30.hash, found: (await row(30)).hash });
    expect(r.ok === false && r.message).toMatch(/^Row 30 was replaced/);
    // The checkpoints never named row 30: the newest still holds.
    expect(r.checkpoints.holds).toMatchObject({ rowId: 260 });
  });

  it("delete: row 31 removed", async () => {
    await sql(`DELETE FROM audit_events WHERE id = 31`);
    const r = await verifyChain(t.db);
    expect(r).toMatchObject({ ok: false, brokenAt: 32, reason: "missing row", count: 30 });
    expect(r.ok === false && r.message).toMatch(/^Row 31 was deleted/);
  });

  it("insert: a row slipped in after row 40, the later rows renumbered", async () => {
    await sql(`UPDATE audit_events SET id = -id WHERE id > 40`);
    await sql(`UPDATE audit_events SET id = -id + 1 WHERE id < 0`);
    const r40 = (await row(40));
    const forged = { ...r40, id: 41, type: "login", outcome: "ok", details: null };
    await sql(
      `INSERT INTO audit_events (id, at, type, actor_id, tool, outcome, prev_hash, hash, chain) VALUES (41, ?, 'login', 'u1', 'read_file', 'ok', ?, ?, 2)`,
      r40.at, r40.hash, chainMac(randomBytes(32), r40.hash, forged),
    );
    const r = await verifyChain(t.db);
    expect(r).toMatchObject({ ok: false, brokenAt: 41, reason: "inserted row" });
    expect(r.ok === false && r.message).toMatch(/^A row was inserted after row 40/);
  });

  it("append: rows after 238 were added without the key (a sha256 chain, or a made-up key)", async () => {
    await sql(`DELETE FROM audit_events WHERE id > 238`);
    fs.rmSync(checkpointFile()); // the attacker also hides the checkpoints that would name the removed rows
    await appendForged(5, null);
    await appendForged(5, randomBytes(32));
    const r = await verifyChain(t.db);
    expect(r).toMatchObject({ ok: false, brokenAt: 239, reason: "appended without key", count: 238 });
    expect(r.ok === false && r.message).toMatch(/^Rows after 238 were appended without the key: rows 239–248/);
  });

  it("rewrite and re-hash the whole chain with a fresh key: fails at the first row", async () => {
    await sql(`UPDATE audit_events SET outcome = 'refused' WHERE id = 100`);
    await rehashFrom(1, randomBytes(32));
    const r = await verifyChain(t.db);
    expect(r).toMatchObject({ ok: false, brokenAt: 1, reason: "rewritten without key", count: 0 });
    expect(r.ok === false && r.message).toMatch(/rewritten without the key.*fails at the first row/);
  });

  it("rewrite as the old unkeyed chain (a downgrade to sha256): fails at the first row too", async () => {
    await rehashFrom(1, null);
    expect(await verifyChain(t.db)).toMatchObject({ ok: false, brokenAt: 1, reason: "rewritten without key" });
  });

  it("rewrite with the stolen HMAC key but not the signing key: the checkpoints no longer match", async () => {
    const stolen = loadAuditKeys(t.db).hmacKey!;
    await sql(`UPDATE audit_events SET outcome = 'refused' WHERE id = 75`);
    await rehashFrom(75, stolen);
    const r = await verifyChain(t.db);
    expect(r).toMatchObject({ ok: false, reason: "checkpoint mismatch", brokenAt: 110 });
    expect(r.checkpoints.mismatch).toMatchObject({ seq: 3, rowId: 110 });
    expect(r.checkpoints.holds).toMatchObject({ seq: 2, rowId: 60 });
    expect(r.ok === false && r.message).toMatch(/^Checkpoint 3 \(row 110, .*\) no longer matches: the chain up to row 110 was rewritten.*Checkpoint 2 \(row 60, .*\) still holds\./);
  });

  it("rows removed at the end (which no chain alone can show): the newest checkpoint names a row that is gone", async () => {
    await sql(`DELETE FROM audit_events WHERE id > 200`);
    const r = await verifyChain(t.db);
    expect(r).toMatchObject({ ok: false, reason: "checkpoint mismatch", brokenAt: 210 });
    expect(r.ok === false && r.message).toMatch(/^Rows after 200 were removed: checkpoint 5 \(row 210, .*\) names row 210, which is gone\. Checkpoint 4 \(row 160/);
  });

  it("checkpoint file tampered: a line changed, or a line removed", async () => {
    const lines = fs.readFileSync(checkpointFile(), "utf8").trim().split("\n");
    const c4 = JSON.parse(lines[3]!);
    lines[3] = JSON.stringify({ ...c4, hash: (await row(160)).hash.replace(/^./, (ch) => (ch === "a" ? "b" : "a")) });
    fs.writeFileSync(checkpointFile(), lines.join("\n") + "\n");
    let r = await verifyChain(t.db);
    expect(r).toMatchObject({ ok: false, reason: "checkpoint file altered", brokenAt: 0 });
    expect(r.checkpoints.problems).toEqual([expect.stringMatching(/^line 4 \(checkpoint 4, row 160\) has an invalid signature/)]);
    // The sound ones still say what holds; the changed line counts for nothing.
    expect(r.checkpoints.holds).toMatchObject({ rowId: 260 });

    lines.splice(3, 1);
    fs.writeFileSync(checkpointFile(), lines.join("\n") + "\n");
    r = await verifyChain(t.db);
    expect(r).toMatchObject({ ok: false, reason: "checkpoint file altered" });
    expect(r.ok === false && r.message).toMatch(/line 4 \(checkpoint 5\) does not follow checkpoint 3: checkpoints were removed or reordered/);
  });

  it("the newest checkpoint altered before the next is appended: the next one does not vouch for it", async () => {
    await w.close(); // checkpoint 7, at row 300
    const lines = fs.readFileSync(checkpointFile(), "utf8").trim().split("\n");
    lines[6] = JSON.stringify({ ...JSON.parse(lines[6]!), hash: "f".repeat(64) });
    fs.writeFileSync(checkpointFile(), lines.join("\n") + "\n");
    // A new process appends the next checkpoint: it links to the genuine line, recorded beside the keys.
    w = new AuditWriter(t.db, { stdout: false, checkpointEveryRows: 50 });
    await writeRows(50);
    expect(checkpointRows().map((c) => c.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const r = await verifyChain(t.db);
    expect(r).toMatchObject({ ok: false, reason: "checkpoint file altered" });
    expect(r.checkpoints.problems).toEqual([expect.stringMatching(/^line 7 \(checkpoint 7, row 300\) has an invalid signature/)]);
    expect(r.checkpoints.holds).toMatchObject({ seq: 8, rowId: 350 });
  });

  it("checkpoint file cut at the end, or deleted: the head recorded in secrets/ says what is missing", async () => {
    const lines = fs.readFileSync(checkpointFile(), "utf8").trim().split("\n");
    fs.writeFileSync(checkpointFile(), lines.slice(0, 4).join("\n") + "\n");
    let r = await verifyChain(t.db);
    expect(r).toMatchObject({ ok: false, reason: "checkpoint file altered" });
    expect(r.checkpoints.problems).toEqual(["checkpoints 5–6 are missing from the end of the file (6 were written)"]);

    // Deleted, and the console goes on writing: the new file starts at checkpoint 7, linked to the lost 6.
    fs.rmSync(checkpointFile());
    await w.close();
    w = new AuditWriter(t.db, { stdout: false, checkpointEveryRows: 50 });
    await writeRows(10);
    expect(checkpointRows().map((c) => c.seq)).toEqual([7]);
    r = await verifyChain(t.db);
    expect(r).toMatchObject({ ok: false, reason: "checkpoint file altered" });
    expect(r.checkpoints.problems).toEqual([expect.stringMatching(/^line 1 \(checkpoint 7\) does not follow checkpoint 0: checkpoints were removed/)]);
  });

  it("a quiet head is checkpointed after the interval, and on close", async () => {
    await w.close();
    expect(checkpointRows().at(-1)).toMatchObject({ rowId: 300 });
    w = new AuditWriter(t.db, { stdout: false, checkpointEveryRows: 1_000, checkpointEveryMs: 40 });
    await writeRows(3);
    expect(checkpointRows().at(-1)).toMatchObject({ rowId: 300 });
    // The timer fires after 40 ms; a loaded machine may take longer.
    await vi.waitFor(() => expect(checkpointRows().at(-1)).toMatchObject({ rowId: 303 }), { timeout: 5_000, interval: 20 });
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, count: 303, checkpoints: { unanchored: 0 } });
  });
});

describe("a database written before the chain was keyed", () => {
  it("keeps its unkeyed rows verifiable, keys the rows after them, and says so", async () => {
    const old = tempDb();
    try {
      // What the previous writer left: rows with plain sha256 hashes (chain 1), and no key yet.
      let prev = GENESIS_HASH;
      for (let id = 1; id <= 5; id++) {
        const fields = { id, at: 1_700_000_000_000 + id, type: "login", actorId: "u1", actorEmail: null, sessionId: null, skill: null, layer: null, digest: null, tool: null, model: null, mode: null, outcome: "ok", durationMs: null, details: null };
        const hash = chainHash(prev, fields);
        await execSql(old.db, `INSERT INTO audit_events (id, at, type, actor_id, outcome, prev_hash, hash) VALUES (?, ?, 'login', 'u1', 'ok', ?, ?)`, id, fields.at, prev, hash);
        prev = hash;
      }
      expect(await verifyChain(old.db)).toMatchObject({ ok: true, count: 5, keyedFrom: null, unkeyed: 5 });
      const writer = new AuditWriter(old.db, { stdout: false });
      writer.record({ type: "login" });
      writer.record({ type: "login" });
      await writer.close();
      expect(await verifyChain(old.db)).toMatchObject({ ok: true, count: 7, keyedFrom: 6, unkeyed: 5 });
      // Anyone can re-hash unkeyed rows, but the first keyed row still links to the original ones.
      const get = (id: number) => storedRow(old.db, id);
      const saved = await Promise.all([3, 4, 5].map(get));
      await execSql(old.db, `UPDATE audit_events SET outcome = 'refused' WHERE id = 3`);
      for (let id = 3, p = (await get(2)).hash; id <= 5; id++) {
        const h = chainHash(p, await get(id));
        await execSql(old.db, `UPDATE audit_events SET prev_hash = ?, hash = ? WHERE id = ?`, p, h, id);
        p = h;
      }
      expect(await verifyChain(old.db)).toMatchObject({ ok: false, brokenAt: 5, reason: "replaced" });
      for (const r of saved) await execSql(old.db, `UPDATE audit_events SET outcome = ?, prev_hash = ?, hash = ? WHERE id = ?`, r.outcome, r.prevHash, r.hash, r.id);
      expect(await verifyChain(old.db)).toMatchObject({ ok: true, count: 7 });
      // From the switch-over on, an unkeyed row is a forgery, even one that links.
      const r7 = await storedRow(old.db, 7);
      await execSql(old.db, `UPDATE audit_events SET hash = ?, chain = 1 WHERE id = 7`, chainHash(r7.prevHash, r7));
      expect(await verifyChain(old.db)).toMatchObject({ ok: false, brokenAt: 7, reason: "edited" });
    } finally {
      await old.cleanup();
    }
  });
});
