import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { asc, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { auditEvents } from "../../../db/schema/audit";
import { chainHash, chainMac, GENESIS_HASH } from "./hash";
import { loadAuditKeys } from "./keys";
import { auditSinkFor, flushAudit } from "./sink";
import { chainVerifies, tempDb, type TempDb } from "./test-support/audit";
import { AuditWriter } from "./writer";
import { itOnSqlite } from "../../test-support/needs";

let t: TempDb;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.cleanup());

// Read back through drizzle's awaited queries, so the file runs on SQLite and on PostgreSQL (npm run test:pg).
const rows = (db: Db) =>
  db.select({ id: auditEvents.id, type: auditEvents.type, details: auditEvents.details, prevHash: auditEvents.prevHash, hash: auditEvents.hash }).from(auditEvents).orderBy(asc(auditEvents.id));

describe("AuditWriter", () => {
  it("appends rows that link to the previous row's hash, starting at genesis", async () => {
    const w = new AuditWriter(t.db, { stdout: false });
    w.record({ type: "login", actor: { id: "u1" }, outcome: "ok" });
    w.record({ type: "skill_activated", actor: { id: "u1" }, skill: "pdf" });
    await w.flush();
    w.record({ type: "tool_call", tool: "read_file", outcome: "allowed" });
    await w.flush();
    const r = await rows(t.db);
    expect(r.map((x) => x.id)).toEqual([1, 2, 3]);
    expect(r[0]!.prevHash).toBe(GENESIS_HASH);
    expect(r[1]!.prevHash).toBe(r[0]!.hash);
    expect(r[2]!.prevHash).toBe(r[1]!.hash);
    const [full] = await t.db.select().from(auditEvents).where(eq(auditEvents.id, 2));
    const fields = {
      id: 2, at: full!.at, type: "skill_activated", actorId: "u1", actorEmail: null, sessionId: null, skill: "pdf",
      layer: null, digest: null, tool: null, model: null, mode: null, outcome: null, durationMs: null, details: null,
    };
    // Keyed: the hash is an HMAC with the key in secrets/, so the plain sha256 no longer reproduces it.
    expect(full!.chain).toBe(2);
    expect(chainMac(loadAuditKeys(t.db).hmacKey!, r[0]!.hash, fields)).toBe(r[1]!.hash);
    expect(chainHash(r[0]!.hash, fields)).not.toBe(r[1]!.hash);
    await w.close();
  });

  it("queues events and writes them in one batch on the timer", async () => {
    const w = new AuditWriter(t.db, { stdout: false, flushMs: 30 });
    for (let i = 0; i < 10; i++) w.record({ type: "tool_call", details: { i } });
    expect(w.pending()).toBe(10);
    await new Promise((r) => setTimeout(r, 120));
    expect(w.pending()).toBe(0);
    await w.flush(); // nothing left to write: waits for the timer's batch, still in flight on PostgreSQL
    expect(await rows(t.db)).toHaveLength(10);
    await w.close();
  });

  it("writes a full batch when the task yields, bounds a synchronous burst, and keeps record()'s time", async () => {
    const w = new AuditWriter(t.db, { stdout: false, maxBatch: 5, flushMs: 60_000 });
    const at = new Date("2026-01-02T03:04:05Z");
    for (let i = 0; i < 7; i++) w.record({ type: "tool_call", at });
    // Nothing is taken before the task yields. (Not read from the table: on PostgreSQL that read itself yields, and
    // the batch may land before it.)
    expect(w.pending()).toBe(7);
    await new Promise((r) => setImmediate(r));
    expect(w.pending()).toBe(0);
    await w.flush();
    expect(await rows(t.db)).toHaveLength(7);
    for (let i = 0; i < 100; i++) w.record({ type: "tool_call", at });
    expect(w.pending()).toBe(0); // 20 batches: taken without waiting for the task to yield
    await w.flush();
    expect(await rows(t.db)).toHaveLength(107);
    for (let i = 0; i < 3; i++) w.record({ type: "tool_call", at });
    expect(w.pending()).toBe(3);
    await w.flush();
    expect(await rows(t.db)).toHaveLength(110);
    expect(await t.db.selectDistinct({ at: auditEvents.at }).from(auditEvents)).toEqual([{ at: at.getTime() }]);
    await w.close();
  });

  it("flushAudit writes what auditSinkFor(db) queued", async () => {
    const audit = auditSinkFor(t.db, { stdout: false, flushMs: 60_000 });
    audit.record({ type: "login", actor: { id: "u" } });
    expect(audit.pending()).toBe(1);
    await flushAudit(t.db);
    expect(await rows(t.db)).toHaveLength(1);
    expect(auditSinkFor(t.db)).toBe(audit);
  });

  itOnSqlite("keeps one chain when two connections (the console and the CLI) write to the same file", "a second connection to the database file; writer-servers.test.ts has the PostgreSQL case", async () => {
    const other = new Database(t.file);
    other.pragma("busy_timeout = 5000");
    const db2 = drizzle(other) as unknown as Db;
    (db2 as { $client: Database.Database }).$client = other;
    const a = new AuditWriter(t.db, { stdout: false });
    const b = new AuditWriter(db2, { stdout: false });
    for (let i = 0; i < 5; i++) {
      a.record({ type: "tool_call", details: { from: "console", i } });
      await a.flush();
      b.record({ type: "tool_call", details: { from: "cli", i } });
      await b.flush();
    }
    await a.close();
    await b.close();
    other.close();
    const r = await rows(t.db);
    expect(r).toHaveLength(10);
    expect(await chainVerifies(t)).toMatchObject({ ok: true, count: 10 });
  });

  it("keeps one chain when two writers share a connection (a module loaded twice by Next)", async () => {
    const a = new AuditWriter(t.db, { stdout: false });
    const b = new AuditWriter(t.db, { stdout: false });
    for (let i = 0; i < 4; i++) {
      a.record({ type: "tool_call", details: { from: "a", i } });
      await a.flush();
      b.record({ type: "tool_call", details: { from: "b", i } });
      await b.flush();
    }
    await a.close();
    await b.close();
    expect(await chainVerifies(t)).toMatchObject({ ok: true, count: 8 });
  });

  it("prints one JSON line per event on stdout, without secrets", async () => {
    const lines: string[] = [];
    const w = new AuditWriter(t.db, { stdout: true, out: (s) => lines.push(s) });
    w.record({
      type: "login",
      at: new Date("2026-03-04T05:06:07.000Z"),
      actor: { id: "u1", email: "a@example.com" },
      outcome: "ok",
      details: { ip: "127.0.0.1", password: "hunter2", nested: { apiKey: "sk-secret", keep: 1 } },
    });
    w.record({ type: "tool_call", tool: "bash" });
    await w.flush();
    const text = lines.join("");
    expect(text.endsWith("\n")).toBe(true);
    const parsed = text.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(parsed).toHaveLength(2);
    const [first, second] = await rows(t.db);
    expect(parsed[0]).toEqual({
      log: "omniforge.audit",
      id: 1,
      at: "2026-03-04T05:06:07.000Z",
      type: "login",
      actorId: "u1",
      actorEmail: "a@example.com",
      outcome: "ok",
      details: { ip: "127.0.0.1", nested: { keep: 1 } },
      prevHash: GENESIS_HASH,
      hash: first!.hash,
    });
    expect(parsed[1]).toMatchObject({ id: 2, type: "tool_call", tool: "bash", prevHash: first!.hash, hash: second!.hash });
    expect(text).not.toMatch(/hunter2|sk-secret/);
    expect(first!.details).not.toMatch(/hunter2|sk-secret/);
    await w.close();
  });

  it("never throws from record() on odd input", async () => {
    const w = new AuditWriter(t.db, { stdout: false });
    const cyclic: Record<string, unknown> = {};
    cyclic.me = cyclic;
    expect(() => w.record({ type: "tool_call", details: cyclic, durationMs: Number.NaN, at: new Date("bad") })).not.toThrow();
    await w.flush();
    expect((await rows(t.db))[0]!.details).toBe(JSON.stringify({ me: "[circular]" }));
    await w.close();
  });

  it("stores a lone surrogate as U+FFFD and hashes what it stores, so the chain still verifies", async () => {
    const w = new AuditWriter(t.db, { stdout: false });
    // A sign-in name or an agent's attribute: any caller can put one in; a surrogate pair stays as it is.
    w.record({ type: "login_failed", actor: { id: "u1", email: "eve\ud800@x.io" }, skill: "a\udc00b", sessionId: "ok 😀" });
    await w.flush();
    const [r] = await t.db.select({ email: auditEvents.actorEmail, skill: auditEvents.skill, session: auditEvents.sessionId }).from(auditEvents);
    expect(r).toEqual({ email: "eve\ufffd@x.io", skill: "a\ufffdb", session: "ok 😀" });
    expect(await chainVerifies(t)).toMatchObject({ ok: true, count: 1 });
    await w.close();
  });

  // On PostgreSQL a write is async: only "beforeExit" can make one, not process.exit().
  itOnSqlite("writes queued events when the process exits, and prints them as JSON lines", "an exit hook cannot wait for a PostgreSQL write", async () => {
    const script = path.join(t.dir, "exit.ts");
    const repo = process.cwd();
    fs.writeFileSync(
      script,
      `import { openDb } from ${JSON.stringify(path.join(repo, "db/client.ts"))};
       import { auditSinkFor } from ${JSON.stringify(path.join(repo, "server/services/audit/index.ts"))};
       const audit = auditSinkFor(openDb(${JSON.stringify(t.file)}), { flushMs: 60_000 });
       audit.record({ type: "login", actor: { id: "child" }, details: { token: "t0ps3cret", ip: "1.2.3.4" } });
       audit.record({ type: "tool_call", actor: { id: "child" } });
       process.exit(0); // no flush(): the exit hook must write them
      `,
    );
    const r = spawnSync(process.execPath, ["--import", "tsx", script], {
      cwd: repo,
      encoding: "utf8",
      env: { ...process.env, OMNIFORGE_AUDIT_STDOUT: "1" },
      timeout: 30_000,
    });
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.log, l.type, l.actorId])).toEqual([
      ["omniforge.audit", "login", "child"],
      ["omniforge.audit", "tool_call", "child"],
    ]);
    expect(r.stdout).not.toContain("t0ps3cret");
    expect((await rows(t.db)).map((x) => x.type)).toEqual(["login", "tool_call"]);
    expect(await chainVerifies(t)).toMatchObject({ ok: true, count: 2 });
  });
});
