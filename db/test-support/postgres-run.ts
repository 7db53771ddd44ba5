// Under OMNIFORGE_TEST_DATABASE=postgres (npm run test:pg): one throw-away cluster for the whole vitest run, started by
// the global setup, with a template database migrated once. Each temp database is a copy of the template (CREATE
// DATABASE ... TEMPLATE), made synchronously with the cluster's `createdb`, so tempDb() stays synchronous for the
// tests that call it as they always have.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { postgresBinDir } from "../../scripts/postgres";
import { setting } from "../../env";

export const TEMPLATE_DATABASE = "omniforge_template";

declare module "vitest" {
  interface ProvidedContext {
    /** The run's cluster: its port; empty when the run is on SQLite. */
    omniforgePostgresPort: number;
  }
}

export function testDatabaseIsPostgres(): boolean {
  return setting("OMNIFORGE_TEST_DATABASE") === "postgres";
}

/** A fresh database copied from the migrated template; returns its URL. */
export function freshTestDatabase(): string {
  const port = inject("omniforgePostgresPort");
  if (!port) throw new Error("OMNIFORGE_TEST_DATABASE=postgres, but the run's cluster was not started (vitest.config.ts's global setup)");
  const bin = postgresBinDir();
  if (!bin) throw new Error("no PostgreSQL server installed under /usr/lib/postgresql");
  const name = `t_${randomBytes(6).toString("hex")}`;
  const r = spawnSync(path.join(bin, "createdb"), ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-T", TEMPLATE_DATABASE, name], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`createdb failed: ${(r.stderr || r.stdout).trim()}`);
  return `postgres://postgres@127.0.0.1:${port}/${name}`;
}

/**
 * For a test that starts the console as it starts in production (ensureReady, reading its settings): under
 * OMNIFORGE_TEST_DATABASE=postgres, DATABASE_URL naming a fresh database of the run's cluster; else nothing, and
 * the console opens the data home's SQLite file.
 */
/**
 * Drops a database freshTestDatabase made (its test is done): the cluster stays small, so removing it at the end of the
 * run is quick. Left to grow, a whole run's copies of the template (about 1 GB per 150) kept the end of the run
 * deleting files for minutes. Other connections to it are ended (WITH (FORCE)).
 */
export async function dropTestDatabase(url: string): Promise<void> {
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.slice(1));
  u.pathname = "/postgres";
  const client = new pg.Client({ connectionString: u.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export function testDatabaseEnv(): { DATABASE_URL?: string } {
  return testDatabaseIsPostgres() ? { DATABASE_URL: freshTestDatabase() } : {};
}
