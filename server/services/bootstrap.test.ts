// The console's bootstrap (what instrumentation.ts runs before the server listens), in its own process: work that
// would otherwise fall on the first request that needs it is done here (issue 35 item 5).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { testDatabaseEnv } from "../../db/test-support/postgres-run";
import { describeOnPostgres } from "../test-support/needs";

const repo = path.resolve(import.meta.dirname, "../..");

describe("the console's start", () => {
  it("loads the token estimator's encoding before the first request, which then counts with it", () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "of-bootstrap-home-"));
    const file = path.join(home, "start.mts");
    // Whether the encoding's module is in the process's module cache, before and after the bootstrap.
    fs.writeFileSync(
      file,
      `
      import { createRequire } from "node:module";
      const cache = createRequire(import.meta.url).cache;
      const loaded = () => Object.keys(cache).some((k) => k.includes("o200k_base"));
      const before = loaded();
      const { ensureReady } = await import(${JSON.stringify(path.join(repo, "server/services/bootstrap.ts"))});
      await ensureReady();
      const { estimateTokens } = await import(${JSON.stringify(path.join(repo, "server/runtime/skill/tokens.ts"))});
      console.log("LOADED " + JSON.stringify({ before, after: loaded(), tokens: estimateTokens("Fill in the fields of a PDF form.") }));
      `,
    );
    try {
      const r = spawnSync(process.execPath, ["--import", "tsx", file], {
        cwd: repo,
        encoding: "utf8",
        timeout: 60_000,
        env: { PATH: process.env.PATH, OMNIFORGE_HOME: home, OMNIFORGE_DEMO: "0", OMNIFORGE_AUDIT_STDOUT: "0" } as unknown as NodeJS.ProcessEnv,
      });
      expect(r.status, r.stderr).toBe(0);
      const line = r.stdout.split("\n").find((l) => l.startsWith("LOADED "));
      expect(JSON.parse(line!.slice(7))).toEqual({ before: false, after: true, tokens: 9 });
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});

/** Runs the bootstrap in a process of its own over `home` and the database; with `audit`, records one row first. */
function startOver(home: string, databaseUrl: string, audit: boolean) {
  const file = path.join(home, "..", `start-${path.basename(home)}.mts`);
  fs.writeFileSync(
    file,
    `
    const { ensureReady } = await import(${JSON.stringify(path.join(repo, "server/services/bootstrap.ts"))});
    try {
      const { db } = await ensureReady();
      if (${audit}) {
        const { auditSinkFor, flushAudit } = await import(${JSON.stringify(path.join(repo, "server/services/audit/index.ts"))});
        auditSinkFor(db).record({ type: "login", actor: { id: "someone" } });
        await flushAudit(db);
      }
      console.log("STARTED");
    } catch (e) {
      console.log("REFUSED " + e.constructor.name + ": " + e.message);
    }
    process.exit(0);
    `,
  );
  const r = spawnSync(process.execPath, ["--import", "tsx", file], {
    cwd: repo,
    encoding: "utf8",
    timeout: 60_000,
    env: { PATH: process.env.PATH, OMNIFORGE_HOME: home, DATABASE_URL: databaseUrl, OMNIFORGE_DEMO: "0", OMNIFORGE_AUDIT_STDOUT: "0" } as unknown as NodeJS.ProcessEnv,
  });
  return r.stdout.split("\n").find((l) => l.startsWith("STARTED") || l.startsWith("REFUSED")) ?? r.stderr;
}

describeOnPostgres("a console server on a shared PostgreSQL", "a second server's data home on the console's PostgreSQL: npm test's postgres part runs it", () => {
  // Found following docs/deploy.md's team setup: a server started with another OMNIFORGE_HOME than the others (its
  // clone's own .omniforge-data) made audit keys of its own there and appended rows the others' check called edited.
  it("refuses to start with a data home that does not hold the chain's key, and makes no key there", () => {
    const { DATABASE_URL } = testDatabaseEnv();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "of-bootstrap-team-"));
    try {
      const shared = path.join(dir, "shared");
      const own = path.join(dir, "own");
      expect(startOver(shared, DATABASE_URL!, true)).toBe("STARTED");
      expect(startOver(own, DATABASE_URL!, false)).toBe(
        `REFUSED StartRefused: the database of DATABASE_URL: its audit chain is keyed with the console's data home's key, and ${own} holds none: ` +
          "set OMNIFORGE_HOME to the data home the other servers share (docs/deploy.md, team setup step 2)",
      );
      expect(fs.readdirSync(path.join(own, "secrets")).filter((f) => f.startsWith("audit"))).toEqual([]);
      // The shared home starts again, and so does a second server given it.
      expect(startOver(shared, DATABASE_URL!, true)).toBe("STARTED");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
