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

/**
 * db/migrations/<dialect>: from the working folder (the console runs in the clone), else beside this module, as the
 * CLI bundle in dist/cli finds it from any folder a user runs `omniforge` in. The SQLite migrations moved into
 * their own folder unchanged: the migrator goes by each one's time and SQL, not its path, so an existing
 * console.db runs none of them again.
 */
export function migrationsFolder(dialect: "sqlite" | "postgres" = "sqlite"): string {
  const here = typeof import.meta.dirname === "string" ? import.meta.dirname : null;
  const candidates = [
    path.join(repoRoot(), "db", "migrations", dialect),
    ...(here ? [path.join(here, "migrations", dialect), path.join(here, "..", "..", "db", "migrations", dialect)] : []),
  ];
  return candidates.find((d) => fs.existsSync(path.join(/*turbopackIgnore: true*/ d, "meta", "_journal.json"))) ?? candidates[0]!;
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
