// The e2e console's database, for a journey that changes a row behind the console's back (as someone with SQL access
// would): the SQLite file in its data home, or, when npm test runs the journeys on PostgreSQL, the database its
// DATABASE_URL names (the console and the spec inherit the same environment).
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { E2E_HOME } from "../playwright.config";

const postgresUrl = () => process.env.DATABASE_URL || null;

/** Which database the e2e console runs on. */
export const consoleDatabaseKind = (): "sqlite" | "postgres" => (postgresUrl() ? "postgres" : "sqlite");

/** Runs one statement with `?` for its values on the console's database. */
export async function execOnConsoleDb(text: string, ...params: unknown[]): Promise<void> {
  const url = postgresUrl();
  if (url) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      let n = 0;
      await client.query(text.replace(/\?/g, () => `$${++n}`), params);
    } finally {
      await client.end();
    }
    return;
  }
  const db = new Database(path.join(E2E_HOME, "console.db"));
  db.pragma("busy_timeout = 5000");
  try {
    db.prepare(text).run(...params);
  } finally {
    db.close();
  }
}
