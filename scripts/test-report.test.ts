// `npm test` names every skipped suite and its reason beside the count, read from vitest's own JSON report.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeNeeding, postgresql } from "../server/test-support/needs";
import { skippedSuites, type VitestReport } from "./test-report";

const repo = path.resolve(import.meta.dirname, "..");

describe("skipped suites in the test summary", () => {
  it("names a suite skipped for missing shared fixtures, with the reason, from a real vitest run", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "of-test-report-"));
    try {
      const out = path.join(dir, "vitest.json");
      const missing = path.join(dir, "no-shared");
      const env = { ...process.env, OMNIFORGE_SHARED_DIR: missing, CI: "" };
      const r = spawnSync(path.join(repo, "node_modules", ".bin", "vitest"), ["run", "server/runtime/skill/conformance.test.ts", "--reporter=json", `--outputFile.json=${out}`], { cwd: repo, env, encoding: "utf8" });
      expect(r.status, r.stderr).toBe(0);
      const report = JSON.parse(fs.readFileSync(out, "utf8")) as VitestReport;
      expect(skippedSuites(report, repo)).toEqual([
        `server/runtime/skill/conformance.test.ts › conformance cases (spec rules) (1 test): needs shared fixtures: ${missing}/fixtures/conformance/cases.json is absent (set OMNIFORGE_SHARED_DIR)`,
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("fails that suite under CI instead of skipping it", () => {
    const env = { ...process.env, OMNIFORGE_SHARED_DIR: path.join(os.tmpdir(), "of-no-shared-here"), CI: "1" };
    const r = spawnSync(path.join(repo, "node_modules", ".bin", "vitest"), ["run", "server/runtime/skill/conformance.test.ts"], { cwd: repo, env, encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stdout + r.stderr).toContain("needs shared fixtures");
    expect(r.stdout + r.stderr).toContain("Under CI this suite may not be skipped");
  });

  it("says when a skipped test gave no reason", () => {
    const report: VitestReport = {
      numPassedTests: 1,
      numFailedTests: 0,
      numPendingTests: 1,
      numTodoTests: 0,
      testResults: [
        {
          name: path.join(repo, "x.test.ts"),
          status: "passed",
          assertionResults: [
            { ancestorTitles: ["group"], title: "runs", status: "passed" },
            { ancestorTitles: ["group"], title: "later", status: "skipped" },
          ],
        },
      ],
    };
    expect(skippedSuites(report, repo)).toEqual(["x.test.ts › group › later (1 test): no reason given"]);
  });
});

describeNeeding(postgresql(), "skipped on the postgres part", () => {
  // The part runs the files proven on PostgreSQL; a test of what only SQLite has is skipped there, and says why.
  it("names a SQLite-only test with its reason, from a real vitest run on PostgreSQL", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "of-test-report-pg-"));
    try {
      const out = path.join(dir, "vitest.json");
      const env = { ...process.env, OMNIFORGE_TEST_DATABASE: "postgres", CI: "" };
      const r = spawnSync(path.join(repo, "node_modules", ".bin", "vitest"), ["run", "db/transaction.test.ts", "--reporter=json", `--outputFile.json=${out}`], { cwd: repo, env, encoding: "utf8" });
      expect(r.status, r.stderr).toBe(0);
      const report = JSON.parse(fs.readFileSync(out, "utf8")) as VitestReport;
      expect(skippedSuites(report, repo)).toEqual([
        "db/transaction.test.ts › inTransaction (on SQLite, or PostgreSQL under npm run test:pg) › on SQLite, runs two transactions one after the other, and a nested one joins its parent (1 test): needs SQLite: PostgreSQL runs them side by side, each on a connection of its own",
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe("npm test's parts", () => {
  // A misspelt part (`npm test -- units`) ran nothing and ended "0 passed, 0 failed", exit 0: a CI gate that passes.
  it("an unknown part is refused with the parts there are, exit 2", () => {
    const r = spawnSync(path.join(repo, "node_modules/.bin/tsx"), ["scripts/test.ts", "units"], { cwd: repo, encoding: "utf8", timeout: 30_000 });
    expect([r.status, r.stderr]).toEqual([2, 'npm test: no part "units": the parts are typecheck, deadcode, unit, postgres, e2e, e2e-postgres (none: all of them)\n']);
    expect(r.stdout).toBe("");
  });
});
