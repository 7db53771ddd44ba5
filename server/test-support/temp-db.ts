// A real database with the committed migrations applied, in a fresh temp folder that serves as its data home: what
// unit tests of services and routers run against. A SQLite file by default; under OMNIFORGE_TEST_DATABASE=postgres
// (npm run test:pg) a fresh database of the run's throw-away PostgreSQL cluster (db/test-support/postgres-run.ts).
import fs from "node:fs";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import os from "node:os";
import path from "node:path";
import { closeDb, openDb, postgresDb, schema, type Db } from "../../db/client";
import { dbKind, postgresPool } from "../../db/dialect";
import { dropTestDatabase, freshTestDatabase, testDatabaseIsPostgres } from "../../db/test-support/postgres-run";

export interface TempDb {
  db: Db;
  dir: string;
  /** The SQLite database file (the audit tests reopen it to tamper with rows); on PostgreSQL, a path nothing is at. */
  file: string;
  /** On PostgreSQL: the database's URL, for a second connection as another server would have. */
  url: string | null;
  cleanup(): void | Promise<void>;
}

export function tempDb(): TempDb {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-db-"));
  const file = path.join(dir, "console.db");
  if (testDatabaseIsPostgres()) {
    const url = freshTestDatabase();
    const db = postgresDb(url, dir);
    return {
      db,
      dir,
      file,
      url,
      async cleanup() {
        await postgresPool(db)!.end();
        await dropTestDatabase(url);
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const db = openDb(file);
  return {
    db,
    dir,
    file,
    url: null,
    cleanup() {
      closeDb(file);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Another connection to the temp database, as a second console server (or the CLI) would open it. */
export function secondConnection(t: Pick<TempDb, "db" | "file" | "url" | "dir">): { db: Db; close(): Promise<void> } {
  if (dbKind(t.db) === "postgres") {
    const db = postgresDb(t.url!, t.dir);
    return { db, close: () => postgresPool(db)!.end() };
  }
  const sqlite = new Database(t.file);
  sqlite.pragma("busy_timeout = 5000");
  return { db: drizzle(sqlite, { schema }) as Db, close: async () => void sqlite.close() };
}
