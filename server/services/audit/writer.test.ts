import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import type { Db } from "../../../db/client";
import { chainHash, chainMac, GENESIS_HASH } from "./hash";
import { loadAuditKeys } from "./keys";
import { auditSinkFor, flushAudit } from "./sink";
import { tempDb, type TempDb } from "./test-support/audit";
import { AuditWriter } from "./writer";
import { verifyChain } from "./verify";

let t: TempDb;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.cleanup());

const rows = (db: Db) =>
  db.$client.prepare(`SELECT id, type, details, prev_hash AS prevHash, hash FROM audit_events ORDER BY id`).all() as {
    id: number;
    type: string;
    details: string | null;
    prevHash: string;
    hash: string;
  }[];

describe("AuditWriter", () => {
  it("appends rows that link to the previous row's hash, starting at genesis", () => {
    const w = new AuditWriter(t.db, { stdout: false });
    w.record({ type: "login", actor: { id: "u1" }, outcome: "ok" });
    w.record({ type: "skill_activated", actor: { id: "u1" }, skill: "pdf" });
    w.flush();
    w.record({ type: "tool_call", tool: "read_file", outcome: "allowed" });
    w.flush();
    const r = rows(t.db);
    expect(r.map((x) => x.id)).toEqual([1, 2, 3]);
    expect(r[0]!.prevHash).toBe(GENESIS_HASH);
    expect(r[1]!.prevHash).toBe(r[0]!.hash);
    expect(r[2]!.prevHash).toBe(r[1]!.hash);
    const full = t.db.$client.prepare(`SELECT * FROM audit_events WHERE id = 2`).get() as Record<string, unknown>;
    const fields = {
      id: 2, at: full.at as number, type: "skill_activated", actorId: "u1", actorEmail: null, sessionId: null, skill: "pdf",
      layer: null, digest: null, tool: null, model: null, mode: null, outcome: null, durationMs: null, details: null,
    };
    // Keyed: the hash is an HMAC with the key in secrets/, so the plain sha256 no longer reproduces it.
    expect(full.chain).toBe(2);
    expect(chainMac(loadAuditKeys(t.db).hmacKey!, r[0]!.hash, fields)).toBe(r[1]!.hash);
    expect(chainHash(r[0]!.hash, fields)).not.toBe(r[1]!.hash);
    w.close();
  });

  it("queues events and writes them in one batch on the timer", async () => {
    const w = new AuditWriter(t.db, { stdout: false, flushMs: 30 });
    for (let i = 0; i < 10; i++) w.record({ type: "tool_call", details: { i } });
    expect(rows(t.db)).toHaveLength(0);
    expect(w.pending()).toBe(10);
    await new Promise((r) => setTimeout(r, 120));
    expect(w.pending()).toBe(0);
    expect(rows(t.db)).toHaveLength(10);
    w.close();
  });

  it("writes a full batch when the task yields, bounds a synchronous burst, and keeps record()'s time", async () => {
    const w = new AuditWriter(t.db, { stdout: false, maxBatch: 5, flushMs: 60_000 });
    const at = new Date("2026-01-02T03:04:05Z");
    for (let i = 0; i < 7; i++) w.record({ type: "tool_call", at });
    expect(rows(t.db)).toHaveLength(0);
    await new Promise((r) => setImmediate(r));
    expect(rows(t.db)).toHaveLength(7);
    for (let i = 0; i < 100; i++) w.record({ type: "tool_call", at });
    expect(rows(t.db)).toHaveLength(107); // 20 batches: written without waiting
    for (let i = 0; i < 3; i++) w.record({ type: "tool_call", at });
    expect(w.pending()).toBe(3);
    w.flush();
    expect(rows(t.db)).toHaveLength(110);
    expect(t.db.$client.prepare(`SELECT DISTINCT at FROM audit_events`).all()).toEqual([{ at: at.getTime() }]);
    w.close();
  });

  it("flushAudit writes what auditSinkFor(db) queued", () => {
    const audit = auditSinkFor(t.db, { stdout: false, flushMs: 60_000 });
    audit.record({ type: "login", actor: { id: "u" } });
    expect(rows(t.db)).toHaveLength(0);
    flushAudit(t.db);
    expect(rows(t.db)).toHaveLength(1);
    expect(auditSinkFor(t.db)).toBe(audit);
  });

  it("keeps one chain when two connections (the console and the CLI) write to the same file", async () => {
    const other = new Database(t.file);
    other.pragma("busy_timeout = 5000");
    const db2 = drizzle(other) as unknown as Db;
    (db2 as { $client: Database.Database }).$client = other;
    const a = new AuditWriter(t.db, { stdout: false });
    const b = new AuditWriter(db2, { stdout: false });
    for (let i = 0; i < 5; i++) {
      a.record({ type: "tool_call", details: { from: "console", i } });
      a.flush();
      b.record({ type: "tool_call", details: { from: "cli", i } });
      b.flush();
    }
    a.close();
    b.close();
    other.close();
    const r = rows(t.db);
    expect(r).toHaveLength(10);
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, count: 10 });
  });

  it("keeps one chain when two writers share a connection (a module loaded twice by Next)", async () => {
    const a = new AuditWriter(t.db, { stdout: false });
    const b = new AuditWriter(t.db, { stdout: false });
    for (let i = 0; i < 4; i++) {
      a.record({ type: "tool_call", details: { from: "a", i } });
      a.flush();
      b.record({ type: "tool_call", details: { from: "b", i } });
      b.flush();
    }
    a.close();
    b.close();
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, count: 8 });
  });

  it("prints one JSON line per event on stdout, without secrets", () => {
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
    w.flush();
    const text = lines.join("");
    expect(text.endsWith("\n")).toBe(true);
    const parsed = text.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(parsed).toHaveLength(2);
    const [first, second] = rows(t.db);
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
    w.close();
  });

  it("never throws from record() on odd input", () => {
    const w = new AuditWriter(t.db, { stdout: false });
    const cyclic: Record<string, unknown> = {};
    cyclic.me = cyclic;
    expect(() => w.record({ type: "tool_call", details: cyclic, durationMs: Number.NaN, at: new Date("bad") })).not.toThrow();
    w.flush();
    expect(rows(t.db)[0]!.details).toBe(JSON.stringify({ me: "[circular]" }));
    w.close();
  });

  it("stores a lone surrogate as U+FFFD and hashes what it stores, so the chain still verifies", async () => {
    const w = new AuditWriter(t.db, { stdout: false });
    // A sign-in name or an agent's attribute: any caller can put one in; a surrogate pair stays as it is.
    w.record({ type: "login_failed", actor: { id: "u1", email: "eve\ud800@x.io" }, skill: "a\udc00b", sessionId: "ok 😀" });
    w.flush();
    const r = t.db.$client.prepare(`SELECT actor_email AS email, skill, session_id AS session FROM audit_events`).get();
    expect(r).toEqual({ email: "eve\ufffd@x.io", skill: "a\ufffdb", session: "ok 😀" });
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, count: 1 });
    w.close();
  });

  it("writes queued events when the process exits, and prints them as JSON lines", async () => {
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
    expect(rows(t.db).map((x) => x.type)).toEqual(["login", "tool_call"]);
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, count: 2 });
  });
});
