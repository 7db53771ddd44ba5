// The command line's source changes, publications and deploys audited in the console's PostgreSQL (issue #38): the
// real `omniforge` process with DATABASE_URL naming the run's throw-away cluster (`npm run test:pg`), on a data home
// that also holds a console.db. The rows join the console's one chain, which verifies; the console.db gets none. And
// `agent run`, failing partway there, ends its pool and exits at once.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { asc } from "drizzle-orm";
import { expect, it } from "vitest";
import { closeDb, openDb } from "../../db/client";
import { auditEvents } from "../../db/schema";
import { repoRoot } from "../config";
import { removeTree } from "../runtime/sources/checkout";
import { skillMd, TestRepo } from "../runtime/sources/test-support/sources";
import { chainVerifies } from "../services/audit/test-support/audit";
import { useSkillsTestHome } from "../test-support/test-home";
import { describeOnPostgres } from "../test-support/needs";

const h = useSkillsTestHome();

function omniforge(...args: string[]) {
  const r = spawnSync(process.execPath, [path.join(repoRoot(), "bin/omniforge.mjs"), ...args, "--home", h.dataHome.home], {
    cwd: h.dir,
    encoding: "utf8",
    env: { ...process.env, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "", HOME: h.dir, OMNIFORGE_CACHE_DIR: "off", DATABASE_URL: h.url! },
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The command line's rows in the console's PostgreSQL, oldest first. */
async function cliRows() {
  const rows = await h.db.select({ type: auditEvents.type, actor: auditEvents.actorId, details: auditEvents.details }).from(auditEvents).orderBy(asc(auditEvents.id));
  return rows.filter((r) => r.actor === "cli").map((r) => ({ type: r.type, details: JSON.parse(r.details ?? "{}") as Record<string, unknown> }));
}

/** A console.db in the data home, as one left from before the move to PostgreSQL: its audit rows, counted after. */
function leftConsoleDb(): () => number {
  const file = path.join(h.dataHome.home, "console.db");
  openDb(file);
  closeDb(file);
  return () => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare("SELECT count(*) AS n FROM audit_events").get() as { n: number }).n;
    } finally {
      db.close();
    }
  };
}

describeOnPostgres("source, publish marketplace and skill deploy audited through DATABASE_URL (PostgreSQL)", "the command line against the console's PostgreSQL: npm test's postgres part runs it", () => {
  it("source add, update, rollback and remove of a local repository land in PostgreSQL's chain, which verifies; the console.db gets nothing", async () => {
    const sqliteRows = leftConsoleDb();
    const origin = new TestRepo(h.dir, "org-skills");
    const c1 = origin.write({ "skills/alpha/SKILL.md": skillMd("alpha", "Alpha. Use when asked for alpha.") }).commit("alpha");
    try {
      expect(omniforge("source", "add", "org", "--git", origin.bare, "--path", "skills")).toEqual({
        code: 0,
        out: `added source org: ${origin.bare} HEAD at ${c1.slice(0, 12)}, 1 skill in the enterprise layer\n`,
        err: "",
      });
      const c2 = origin.write({ "skills/alpha/SKILL.md": skillMd("alpha", "Alpha, reworded. Use when asked for alpha.") }).commit("alpha 2");
      expect(omniforge("source", "update", "org").code).toBe(0);
      expect(omniforge("source", "rollback", "org").code).toBe(0);
      expect(omniforge("source", "remove", "org").code).toBe(0);
      expect((await cliRows()).map((r) => [r.type, r.details.from, r.details.to, r.details.url])).toEqual([
        ["source_added", null, c1, origin.bare],
        ["source_updated", c1, c2, origin.bare],
        ["source_rolled_back", c2, c1, origin.bare],
        ["source_removed", c1, null, origin.bare],
      ]);
      expect(await chainVerifies(h)).toMatchObject({ ok: true, count: 4 });
      expect(sqliteRows()).toBe(0);
    } finally {
      removeTree(path.join(h.dataHome.home, "sources"));
    }
  }, 120_000);

  it("publish marketplace and skill deploy write their rows there too, in the same chain", async () => {
    const sqliteRows = leftConsoleDb();
    const skill = path.join(h.dataHome.projectRoot, ".omniforge", "skills", "release-notes", "SKILL.md");
    fs.mkdirSync(path.dirname(skill), { recursive: true });
    fs.writeFileSync(skill, skillMd("release-notes", "Writes release notes. Use when asked for release notes."));
    const out = path.join(h.dir, "marketplace");
    const published = omniforge("publish", "marketplace", "--out", out, "--project", h.dataHome.projectRoot);
    expect([published.code, published.err]).toEqual([0, ""]);
    expect(published.out).toContain(`marketplace omniforge written to ${out}\n`);
    const deployed = omniforge("skill", "deploy", "release-notes", "--scope", "enterprise", "--json", "--project", h.dataHome.projectRoot);
    expect([deployed.code, deployed.err]).toEqual([0, ""]);
    const redacted = new URL(h.url!);
    if (redacted.password) redacted.password = "***";
    expect(JSON.parse(deployed.out)).toMatchObject({ policyFrom: redacted.toString(), auditTo: redacted.toString() });
    const rows = await cliRows();
    expect(rows.map((r) => r.type)).toEqual(["marketplace_published", "skill_deployed"]);
    expect(rows[0]!.details).toMatchObject({ marketplace: "omniforge", out, plugins: [expect.objectContaining({ changed: true })] });
    expect(await chainVerifies(h)).toMatchObject({ ok: true, count: 2 });
    expect(sqliteRows()).toBe(0);
  }, 120_000);

  // A run that failed partway skipped ending the pool, so the process stayed until its idle connections timed out
  // (10 s). Counted from the failure's line on stderr, the exit comes at once; 8 s leaves a loaded machine room and
  // is still short of what the open pool held it.
  it("agent run that fails partway ends its pool and exits with its code at once", async () => {
    const child = spawn(process.execPath, [path.join(repoRoot(), "bin/omniforge.mjs"), "agent", "run", "hello", "--home", h.dataHome.home, "--project", h.dataHome.projectRoot], {
      cwd: h.dir,
      // Meaning search half set up: the run fails after the console's database is open, before the model is asked.
      env: { ...process.env, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "", HOME: h.dir, OMNIFORGE_CACHE_DIR: "off", DATABASE_URL: h.url!, OMNIFORGE_EMBEDDINGS_URL: "http://127.0.0.1:9/v1" },
    });
    let err = "";
    let failedAt = 0;
    child.stderr.on("data", (d: Buffer) => {
      err += d.toString();
      if (!failedAt && err.includes("omniforge agent run: meaning search needs both")) failedAt = performance.now();
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
    const lingered = performance.now() - failedAt;
    expect([code, err]).toEqual([1, "omniforge agent run: meaning search needs both OMNIFORGE_EMBEDDINGS_URL and OMNIFORGE_EMBEDDINGS_MODEL\n"]);
    expect(lingered).toBeLessThan(8_000);
  }, 60_000);
});
