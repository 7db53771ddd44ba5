// Switching audit retention on. In process: the job archives what is older than the setting and the status
// says so. As a whole process: OMNIFORGE_AUDIT_RETENTION_DAYS set before the console's bootstrap starts the job
// (unset keeps everything, a bad value stops the start naming the variable).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeDb, openDb } from "../../../db/client";
import { resolveDataHome } from "../../config";
import { count } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { auditEvents } from "../../../db/schema/audit";
import { ensureRetentionJob, retentionStatus, stopRetentionJob } from "./retention-job";
import { tempDb, type TempDb } from "./test-support/audit";
import { AuditWriter } from "./writer";

const repo = path.resolve(import.meta.dirname, "../../..");
const day = 86_400_000;
let t: TempDb | null = null;
afterEach(async () => {
  stopRetentionJob();
  await t?.cleanup();
  t = null;
});

/** Polls an async check (the job runs on its own timer), as waitFor does a synchronous one. */
async function until(check: () => Promise<boolean>, timeoutMs = 5000): Promise<boolean> {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await new Promise((r) => setTimeout(r, 25))) if (await check()) return true;
  return check();
}

/** Events 10, 9, ... 1 days old (one a day) and one from now. */
async function writeEvents(db: Db) {
  const w = new AuditWriter(db, { stdout: false });
  for (let d = 10; d >= 1; d--) w.record({ type: "tool_call", at: new Date(Date.now() - d * day), details: { d } });
  w.record({ type: "login" });
  await w.flush();
  await w.close();
}

const countEvents = async (db: Db) => (await db.select({ n: count() }).from(auditEvents))[0]!.n;

describe("audit retention job", () => {
  it("with a retention of 3 days, archives the older events to JSONL in the data home and reports it", async () => {
    t = tempDb();
    await writeEvents(t.db);
    const dataHome = resolveDataHome({ OMNIFORGE_HOME: t.dir });
    expect(await retentionStatus(t.db, dataHome, 3)).toMatchObject({ days: 3, archiveDir: path.join(t.dir, "audit-archive"), lastArchive: null });
    expect(ensureRetentionJob(t.db, dataHome, 3)).toBe(3);
    expect(await until(async () => (await retentionStatus(t!.db, dataHome, 3)).lastArchive !== null)).toBe(true);
    const s = await retentionStatus(t.db, dataHome, 3);
    expect(s.lastArchive).toMatchObject({ count: 8, firstId: 1, lastId: 8 });
    expect(path.dirname(s.lastArchive!.file)).toBe(path.join(t.dir, "audit-archive"));
    expect(fs.readFileSync(s.lastArchive!.file, "utf8").trim().split("\n")).toHaveLength(8);
    expect(await countEvents(t.db)).toBe(3);
  });

  it("without a retention keeps everything and starts nothing", async () => {
    t = tempDb();
    await writeEvents(t.db);
    const dataHome = resolveDataHome({ OMNIFORGE_HOME: t.dir });
    expect(ensureRetentionJob(t.db, dataHome, null)).toBeNull();
    await new Promise((r) => setTimeout(r, 200));
    expect(await countEvents(t.db)).toBe(11);
    expect(await retentionStatus(t.db, dataHome, null)).toMatchObject({ days: null, lastArchive: null });
    expect(fs.existsSync(path.join(t.dir, "audit-archive"))).toBe(false);
  });
});

describe("OMNIFORGE_AUDIT_RETENTION_DAYS at the console's start", () => {
  // The console's bootstrap (what instrumentation.ts runs), in its own process with the variable set or not.
  const script = `
    const { ensureReady } = await import(${JSON.stringify(path.join(repo, "server/services/bootstrap.ts"))});
    const { retentionStatus } = await import(${JSON.stringify(path.join(repo, "server/services/audit/retention-job.ts"))});
    const { db, dataHome } = await ensureReady();
    for (let i = 0; i < 100 && (await retentionStatus(db, dataHome)).days !== null && !(await retentionStatus(db, dataHome)).lastArchive; i++) await new Promise((r) => setTimeout(r, 50));
    console.log("STATUS " + JSON.stringify(await retentionStatus(db, dataHome)));
  `;
  // A console on console.db in its data home: the PostgreSQL start is the bootstrap's other branch (getDb).
  async function start(days: string | undefined) {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "of-retention-home-")); // 0700, as a real data home
    const dbFile = path.join(home, "console.db");
    await writeEvents(openDb(dbFile));
    closeDb(dbFile);
    const file = path.join(home, "start.mts");
    fs.writeFileSync(file, script);
    const r = spawnSync(process.execPath, ["--import", "tsx", file], {
      cwd: repo,
      encoding: "utf8",
      timeout: 60_000,
      env: {
        PATH: process.env.PATH,
        OMNIFORGE_HOME: home,
        OMNIFORGE_DEMO: "0",
        OMNIFORGE_AUDIT_STDOUT: "0",
        ...(days === undefined ? {} : { OMNIFORGE_AUDIT_RETENTION_DAYS: days }),
      } as unknown as NodeJS.ProcessEnv,
    });
    const line = r.stdout.split("\n").find((l) => l.startsWith("STATUS "));
    const db = openDb(dbFile);
    const left = await countEvents(db);
    closeDb(dbFile);
    fs.rmSync(home, { recursive: true, force: true });
    return { r, status: line ? JSON.parse(line.slice(7)) : null, left, home };
  }

  it("set to 5: the job runs at start, archives what is older and says so", async () => {
    const { r, status, left, home } = await start("5");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`audit retention: events older than 5 days are archived to ${path.join(home, "audit-archive")}`);
    expect(status).toMatchObject({ days: 5, archiveDir: path.join(home, "audit-archive"), lastArchive: { count: 6 } }); // 10 to 5 days old: the 5-day-old one was written moments before the cut
    expect(left).toBe(5);
  });

  it("unset: every event stays", async () => {
    const { r, status, left } = await start(undefined);
    expect(r.status, r.stderr).toBe(0);
    expect(status).toMatchObject({ days: null, lastArchive: null });
    expect(left).toBe(11);
  });

  it("a bad value stops the start with the variable's name", async () => {
    const { r } = await start("a week");
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("OMNIFORGE_AUDIT_RETENTION_DAYS");
  });
});
