// `npm test`: type-check, dead code (knip), unit tests (Vitest), the database tests again on PostgreSQL, production
// build, e2e (Playwright in Debian's chromium) on a throw-away data home, and the sign-in, save and audit journeys
// again against a console on PostgreSQL. Ends with one plain line `N passed, N failed` counting every test, for CI.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { recordBuild, snapshotInputs } from "./build-stamp";
import { ensureSystemPackages } from "./system-deps";
import { skippedSuites, type VitestReport } from "./test-report";
import { postgresTestFiles, SQLITE_ONLY } from "./test-pg";

const repo = path.resolve(import.meta.dirname, "..");
process.chdir(repo);
const bin = (name: string) => path.join(repo, "node_modules", ".bin", name);
const outDir = path.join(repo, ".omniforge-e2e");
const only = process.argv.slice(2); // e.g. `npm test -- unit` or `npm test -- e2e`
const want = (step: string) => only.length === 0 || only.includes(step);
const PARTS = ["typecheck", "deadcode", "unit", "postgres", "e2e", "e2e-postgres"];
for (const part of only) {
  if (PARTS.includes(part)) continue;
  console.error(`npm test: no part "${part}": the parts are ${PARTS.join(", ")} (none: all of them)`);
  process.exit(2);
}

const env: NodeJS.ProcessEnv = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: "1",
  OMNIFORGE_AUDIT_STDOUT: "0",
  OMNIFORGE_SHARED_DIR: process.env.OMNIFORGE_SHARED_DIR ?? path.resolve(repo, "..", "shared"),
};

let passed = 0;
let failed = 0;
let skipped = 0;
const failures: string[] = [];
/** Each skipped suite with its reason, printed beside the count (under CI they fail instead: test-support/needs.ts). */
const skips: string[] = [];

function run(label: string, cmd: string, args: string[], extraEnv: Record<string, string> = {}): boolean {
  console.log(`\n=== ${label}: ${path.basename(cmd)} ${args.join(" ")}`);
  const t0 = Date.now();
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...env, ...extraEnv } });
  console.log(`=== ${label}: ${r.status === 0 ? "ok" : `exit ${r.status ?? r.signal}`} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return r.status === 0;
}

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as T;
  } catch {
    return null;
  }
}

fs.mkdirSync(outDir, { recursive: true });
const needsBrowser = want("e2e") || want("e2e-postgres");
try {
  ensureSystemPackages(needsBrowser ? ["bubblewrap", "chromium"] : ["bubblewrap"], { required: needsBrowser });
  // The suites on PostgreSQL start their own throw-away clusters (scripts/postgres.ts) from the installed server.
  ensureSystemPackages(["postgresql"], { required: false });
} catch (e) {
  console.error(`[test] ${(e as Error).message}`);
}

if (want("typecheck")) {
  if (run("typecheck", bin("tsc"), ["--noEmit", "-p", "tsconfig.json"])) passed++;
  else {
    failed++;
    failures.push("typecheck");
  }
}

// Dead code fails CI: files nothing imports, exports and types nobody uses, dependencies nothing needs
// (knip, with the app's entry points in knip.json).
if (want("deadcode")) {
  if (run("deadcode", bin("knip"), ["--no-progress", "--no-config-hints"])) passed++;
  else {
    failed++;
    failures.push("deadcode: knip lists unused files, exports or dependencies above; delete them (or un-export what is used only in its file)");
  }
}

/** Runs vitest with `args` as part `label` and adds its report to the counts; a file that fails to load counts too. */
function vitestPart(label: string, args: string[], extraEnv: Record<string, string> = {}, crashed = "vitest crashed"): void {
  const report = path.join(outDir, `vitest-${label}.json`);
  fs.rmSync(report, { force: true });
  run(label, bin("vitest"), ["run", ...args, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`], extraEnv);
  const r = readJson<VitestReport>(report);
  if (!r) {
    failed++;
    failures.push(`${label} (no report: ${crashed})`);
    return;
  }
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + r.numTodoTests;
  skips.push(...skippedSuites(r, repo).map((s) => `${label}: ${s}`));
  // A file that fails to load has no test results but is a failure a person must see.
  const broken = r.testResults.filter((f) => f.status === "failed" && f.message);
  for (const f of broken) failures.push(`${label}: ${path.relative(repo, f.name)}`);
  if (r.numFailedTests === 0 && broken.length) failed += broken.length;
}

if (want("unit")) vitestPart("unit", []);

// The tests that open a database, again on a throw-away PostgreSQL cluster; the files left on SQLite are listed with
// their reasons beside the count (scripts/test-pg.ts).
if (want("postgres")) {
  vitestPart("postgres", postgresTestFiles(), { OMNIFORGE_TEST_DATABASE: "postgres" }, "vitest crashed or no cluster could start");
  skips.push(...Object.entries(SQLITE_ONLY).map(([file, why]) => `postgres: ${file} (the whole file): SQLite only: ${why}`));
}

/** One Playwright run as part `label` on a fresh data home, its report added to the counts. */
function e2ePart(label: string, cmd: string, args: string[]): void {
  fs.rmSync(path.join(outDir, "home"), { recursive: true, force: true });
  const report = path.join(outDir, "results.json");
  fs.rmSync(report, { force: true });
  run(label, cmd, args, { CI: process.env.CI ?? "" });
  const r = readJson<{ stats: { expected: number; unexpected: number; flaky: number; skipped: number } }>(report);
  if (!r) {
    failed++;
    failures.push(`${label} (no report: playwright crashed or the server did not start)`);
  } else {
    passed += r.stats.expected + r.stats.flaky;
    failed += r.stats.unexpected;
    skipped += r.stats.skipped;
    if (r.stats.unexpected) failures.push(`${label}: ${r.stats.unexpected} failed`);
  }
}

// The journeys the issue names (sign-in, save, audit) and health's database kind, again against a console on
// PostgreSQL: scripts/postgres.ts starts a throw-away cluster and runs Playwright with DATABASE_URL set, which its
// webServer (the console) inherits. Four journeys, not their whole files: the three files took 3.7 min.
const POSTGRES_JOURNEYS = {
  "e2e/foundation.spec.ts": ["the demo admin signs in, sees the shell", "health reports the database"],
  "e2e/editor.spec.ts": ["an author creates a skill, sees live diagnostics, saves twice"],
  "e2e/audit.spec.ts": ["an admin sees login events with the right filters"],
};
const journeyArgs = () => [...Object.keys(POSTGRES_JOURNEYS), "--grep", Object.values(POSTGRES_JOURNEYS).flat().join("|")];

if (want("e2e") || want("e2e-postgres")) {
  const inputs = snapshotInputs(repo);
  const built = run("build", bin("next"), ["build"], { NODE_ENV: "production" });
  // The e2e server starts through scripts/start.ts, which rebuilds a build without this record.
  if (built) recordBuild(repo, inputs);
  if (!built) {
    failed++;
    failures.push("build");
  } else {
    if (want("e2e")) e2ePart("e2e", bin("playwright"), ["test"]);
    if (want("e2e-postgres")) e2ePart("e2e-postgres", bin("tsx"), [path.join(repo, "scripts", "postgres.ts"), "--", bin("playwright"), "test", ...journeyArgs()]);
  }
}

console.log("");
if (failures.length) console.log(`failures: ${failures.join("; ")}`);
if (skips.length) console.log(`skipped:\n${skips.map((s) => `  ${s}`).join("\n")}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : 0);
