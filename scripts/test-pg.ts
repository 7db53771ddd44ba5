// `npm run test:pg`: the tests of services, routers and the database, again on PostgreSQL, against one throw-away
// cluster (vitest's global setup under OMNIFORGE_TEST_DATABASE=postgres; db/test-support/postgres-setup.ts). Every
// test file under server/ and db/ that opens a database through the test helpers runs on both databases; a file
// that cannot apply to PostgreSQL is named in SQLITE_ONLY with the reason, which `npm test` prints. A single test of
// SQLite itself inside a file that runs on both says so with itOnSqlite (server/test-support/sqlite-only.ts). Files
// that open both databases themselves (services/health.test.ts) run in the unit part alone. Extra arguments go to vitest.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const repo = path.resolve(import.meta.dirname, "..");

// What opening a database looks like in a test: the temp database and the test homes built on it, the tRPC caller
// over a home, or the console's own start with the run's database (testDatabaseEnv).
const OPENS_A_DATABASE = /\b(tempDb|useTestHome|useSkillsTestHome|skillsTestHome|govHome|playgroundWorld|callerFor|testDatabaseEnv)\(/;

const CLI_READS_CONSOLE_DB = "tests the omniforge CLI over a console.db; the same commands over DATABASE_URL are tested on PostgreSQL by server/cli/policy-database.test.ts and audit-database.test.ts";

/** Test files that open a database but apply to SQLite only, each with the reason. */
export const SQLITE_ONLY: Record<string, string> = {
  "db/migrations.test.ts": "checks the SQLite migrations a console.db recorded (PostgreSQL's own are checked by db/postgres/schema.test.ts)",
  "db/postgres/schema.test.ts": "compares a migrated SQLite file with PostgreSQL's schema, on a cluster of its own on every run",
  "server/cli/console-db.test.ts": "tests console.db itself: its file modes, and files SQLite cannot open",
  "server/cli/commands/db-copy.test.ts": "copies a SQLite console.db into PostgreSQL: the source is SQLite's file (the target is a PostgreSQL cluster on every run)",
  "server/cli/commands/policy.test.ts": CLI_READS_CONSOLE_DB,
  "server/cli/commands/source.test.ts": CLI_READS_CONSOLE_DB,
  "server/cli/commands/token-create.test.ts": CLI_READS_CONSOLE_DB,
  "server/cli/policy-matrix.test.ts": CLI_READS_CONSOLE_DB,
  "server/services/governance/cli-deploy.test.ts": CLI_READS_CONSOLE_DB,
  "server/api/routers/sources/publish-state.test.ts": CLI_READS_CONSOLE_DB,
};

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(repo, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory() && e.name !== "node_modules" && e.name !== "test-support") out.push(...testFiles(rel));
    else if (e.isFile() && e.name.endsWith(".test.ts")) out.push(rel);
  }
  return out;
}

/** Every test file under server/ and db/ that opens a database, sorted. */
export function databaseTestFiles(): string[] {
  return [...testFiles("server"), ...testFiles("db")].filter((f) => OPENS_A_DATABASE.test(fs.readFileSync(path.join(repo, f), "utf8"))).sort();
}

/** The files the postgres part runs: every database test file but the SQLite-only ones. */
export function postgresTestFiles(): string[] {
  return databaseTestFiles().filter((f) => !(f in SQLITE_ONLY));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const r = spawnSync(path.join(repo, "node_modules", ".bin", "vitest"), ["run", ...postgresTestFiles(), ...process.argv.slice(2)], {
    cwd: repo,
    stdio: "inherit",
    env: { ...process.env, OMNIFORGE_TEST_DATABASE: "postgres", OMNIFORGE_AUDIT_STDOUT: "0" },
  });
  process.exit(r.status ?? 1);
}
