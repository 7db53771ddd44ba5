// SQLite through drizzle. Opened lazily (never at import: `next build` imports route modules) and cached
// process-wide so dev-mode reloads reuse one connection.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { repoRoot, resolveDataHome } from "../server/config";
import { PRIVATE_FILE_MODE } from "../server/domain/limits";
import { processWide } from "../server/process-wide";
import * as schema from "./schema";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

const connections = processWide("db", () => new Map<string, Db>());

export function migrationsFolder(): string {
  return path.join(repoRoot(), "db", "migrations");
}

/** Opens (or reuses) the database file, in WAL mode, with migrations applied. */
export function openDb(file: string): Db {
  const existing = connections().get(file);
  if (existing) return existing;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Password hashes and the audit live here: create the file private (SQLite gives its WAL the same mode)
  // instead of with the umask's 0644.
  fs.closeSync(fs.openSync(file, "a", PRIVATE_FILE_MODE));
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  const db = drizzle(sqlite, { schema }) as Db;
  migrate(db, { migrationsFolder: migrationsFolder() });
  connections().set(file, db);
  return db;
}

export function closeDb(file: string): void {
  const db = connections().get(file);
  if (!db) return;
  db.$client.close();
  connections().delete(file);
}

/** The console's database (OMNIFORGE_HOME/console.db). */
export function getDb(): Db {
  return openDb(resolveDataHome().dbFile);
}

export { schema };
