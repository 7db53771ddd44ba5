import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { archiveBefore, retentionDaysFromEnv, startRetention } from "./retention";
import { execSql, selectSql } from "../../../db/test-support/rows";
import { tempDb, type TempDb } from "./test-support/audit";
import { verifyArchiveFile, verifyArchives, verifyChain } from "./verify";
import { AuditWriter } from "./writer";

let t: TempDb;
let w: AuditWriter;
const day = 86_400_000;
const base = Date.UTC(2026, 0, 1);
beforeEach(async () => {
  t = tempDb();
  w = new AuditWriter(t.db, { stdout: false });
  // Days 0..9, three events a day.
  for (let d = 0; d < 10; d++) for (let k = 0; k < 3; k++) w.record({ type: "tool_call", at: new Date(base + d * day + k), details: { d, k } });
  await w.flush();
});
afterEach(async () => {
  await w.close();
  await t.cleanup();
});

describe("archiveBefore", () => {
  it("archives rows agents reported like any other, and the archive keeps their source and verifies", async () => {
    w.record({ type: "skill_activated", at: new Date(base + 10 * day), skill: "pdf-forms", source: { agent: "claude-code", version: "2.1.130", host: "m1", user: "a@x.io" } });
    await w.flush();
    const r = await archiveBefore(t.db, base + 11 * day, path.join(t.dir, "archive"));
    if (!r.archived) throw new Error("not archived");
    const lines = fs.readFileSync(r.file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.find((l) => l.type === "skill_activated")).toMatchObject({ sourceAgent: "claude-code", sourceHost: "m1", skill: "pdf-forms" });
    expect(await verifyArchiveFile(r.file)).toMatchObject({ ok: true, count: 31 });
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, archivedCount: 31 });
  });

  it("moves old rows to a JSONL file, records the head, and the chain stays verifiable across the cut", async () => {
    const dir = path.join(t.dir, "archive");
    const r = await archiveBefore(t.db, base + 4 * day, dir);
    expect(r).toMatchObject({ archived: true, firstId: 1, lastId: 12, count: 12 });
    if (!r.archived) throw new Error("not archived");
    const lines = fs.readFileSync(r.file, "utf8").trim().split("\n");
    expect(lines).toHaveLength(12);
    expect(JSON.parse(lines[11]!).hash).toBe(r.headHash);
    expect(await selectSql(t.db, `SELECT MIN(id) AS m, COUNT(*) AS n FROM audit_events`)).toEqual([{ m: 13, n: 18 }]);
    expect(await selectSql(t.db, `SELECT first_id, last_id, count, head_hash FROM audit_archives`)).toEqual([
      { first_id: 1, last_id: 12, count: 12, head_hash: r.headHash },
    ]);

    expect(await verifyChain(t.db)).toMatchObject({ ok: true, count: 18, archivedCount: 12, startId: 13 });
    expect(await verifyArchiveFile(r.file)).toMatchObject({ ok: true, count: 12, head: r.headHash });

    // New events continue the chain after the cut.
    w.record({ type: "login" });
    await w.flush();
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, count: 19 });

    // A second cut, and everything archived: both archive files verify, each linked to the one before.
    const r2 = await archiveBefore(t.db, Date.now() + day, dir);
    expect(r2).toMatchObject({ archived: true, firstId: 13, lastId: 31, count: 19 });
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, count: 0, archivedCount: 31 });
    w.record({ type: "login" });
    await w.flush();
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, count: 1, startId: 32 });
    const all = await verifyArchives(t.db);
    expect(all.map((a) => a.result.ok)).toEqual([true, true]);
  });

  it("a tampered archive file fails verification", async () => {
    const r = await archiveBefore(t.db, base + 5 * day, path.join(t.dir, "archive"));
    if (!r.archived) throw new Error("not archived");
    const lines = fs.readFileSync(r.file, "utf8").trim().split("\n");
    const edited = JSON.parse(lines[6]!);
    edited.details = JSON.stringify({ d: 99 });
    lines[6] = JSON.stringify(edited);
    fs.writeFileSync(r.file, lines.join("\n") + "\n");
    expect(await verifyArchiveFile(r.file)).toMatchObject({ ok: false, brokenAt: 7, reason: "edited" });
    fs.writeFileSync(r.file, lines.slice(0, 5).join("\n") + "\n");
    expect((await verifyArchives(t.db))[0]!.result).toMatchObject({ ok: false, reason: "missing row" });
  });

  it("refuses to archive a broken chain, and archives nothing when nothing is old enough", async () => {
    expect(await archiveBefore(t.db, base - day, path.join(t.dir, "a"))).toEqual({ archived: false, reason: "no events before the cutoff" });
    await execSql(t.db, `UPDATE audit_events SET type = 'login' WHERE id = 2`);
    await expect(archiveBefore(t.db, base + 4 * day, path.join(t.dir, "a"))).rejects.toThrow(/broken at row 2 \(edited\)/);
    expect(await selectSql(t.db, `SELECT COUNT(*) AS n FROM audit_events`)).toEqual([{ n: 30 }]);
    expect(fs.readdirSync(path.join(t.dir, "a"))).toEqual([]);
  });

  it("finds rows deleted around the cut, or slipped back into the archived range, by someone else", async () => {
    await archiveBefore(t.db, base + 4 * day, path.join(t.dir, "archive"));
    await execSql(t.db, `INSERT INTO audit_events (id, at, type, prev_hash, hash) VALUES (5, 0, 'login', 'x', 'y')`);
    expect(await verifyChain(t.db)).toMatchObject({ ok: false, brokenAt: 5, reason: "inserted row" });
    await execSql(t.db, `DELETE FROM audit_events WHERE id = 5`);
    await execSql(t.db, `DELETE FROM audit_events WHERE id = 13`);
    expect(await verifyChain(t.db)).toMatchObject({ ok: false, brokenAt: 14, reason: "missing row" });
  });

  it("reads the retention setting and applies it on a schedule", async () => {
    expect(retentionDaysFromEnv({})).toBeNull();
    expect(retentionDaysFromEnv({ OMNIFORGE_AUDIT_RETENTION_DAYS: "30" })).toBe(30);
    expect(() => retentionDaysFromEnv({ OMNIFORGE_AUDIT_RETENTION_DAYS: "a month" })).toThrow(/whole number of days/);
    const dir = path.join(t.dir, "scheduled");
    // "Now" is day 10 of the fixture: keeping 3 days archives days 0..6 (21 events).
    const stop = startRetention(t.db, { days: 3, dir, now: () => base + 10 * day });
    const archives = async () => (await selectSql<{ n: number }>(t.db, `SELECT COUNT(*) AS n FROM audit_archives`))[0]!.n;
    await expect.poll(archives).toBe(1);
    expect(fs.readdirSync(dir)).toEqual(["audit-0000000001-0000000021.jsonl"]);
    stop();
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, count: 9, archivedCount: 21 });
  });
});
