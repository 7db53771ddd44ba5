// The console's database: SQLite in the data home by default, PostgreSQL when DATABASE_URL names one. Both are the
// same drizzle API over the same table objects of db/schema (drizzle's node-postgres driver takes them as they are),
// so `Db` is one type; the few places that must tell them apart ask db/dialect.ts. Opened at start (never at import:
// `next build` imports route modules) and cached process-wide so dev-mode reloads reuse one connection or pool.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { resolveDataHome, type DataHome } from "../server/config";
import { PRIVATE_FILE_MODE } from "../server/domain/limits";
import { processWide } from "../server/process-wide";
import { setting } from "../env";
import { migrationsFolder } from "./migrations-folder";
import { migratePostgres, newPool, type PoolOptions, type PgDb } from "./postgres/client";
import * as schema from "./schema";

/**
 * A drizzle database over db/schema. Typed as the SQLite one because that is what the services were written
 * against; on PostgreSQL it is a node-postgres drizzle database and `$client` is a pg.Pool (db/dialect.ts).
 */
export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

const connections = processWide("db", () => new Map<string, Db>());
const pools = processWide("pgDb", () => new Map<string, Promise<Db>>());
// A PostgreSQL database has no folder of its own: the data home it serves (keys, checkpoints, archives) is recorded here.
const homes = processWide("dbHomes", () => new WeakMap<object, string>());

export { migrationsFolder };

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

/**
 * A PostgreSQL database as a Db serving the data home `home`; nothing connects until the first query and no
 * migration runs (openPostgresDb does both). Each call is a pool of its own, as another server's would be.
 */
export function postgresDb(url: string, home: string, opts?: PoolOptions): Db {
  const db = drizzlePg(newPool(url, opts), { schema }) as unknown as Db;
  homes().set(db, path.resolve(home));
  return db;
}

/** postgresDb with the PostgreSQL migrations applied; cached per URL, so a process keeps one pool per database. */
export function openPostgresDb(url: string, home: string): Promise<Db> {
  const cached = pools().get(url);
  if (cached) return cached;
  const opening = (async () => {
    const db = postgresDb(url, home);
    await migratePostgres(db as unknown as PgDb);
    return db;
  })();
  pools().set(url, opening);
  // A failed start is forgotten, so the next request tries again (the database may come up later).
  opening.catch(() => pools().delete(url));
  return opening;
}

/** The data home a database serves: the folder of the SQLite file, or what a PostgreSQL one was opened for. */
export function dataHomeOfDb(db: Db): string | null {
  const home = homes().get(db);
  if (home) return home;
  const c = db.$client as Partial<Database.Database>;
  if (typeof c.memory !== "boolean" || c.memory || !c.name || c.name === ":memory:") return null;
  return path.dirname(path.resolve(/*turbopackIgnore: true*/ c.name));
}

/**
 * The console's database, migrated: PostgreSQL when `url` (DATABASE_URL unless given) is set, else the data home's
 * console.db. Async because PostgreSQL's migrations are; the bootstrap awaits it before the console answers any request.
 */
export function getDb(dataHome: DataHome = resolveDataHome(), url: string | null = setting("DATABASE_URL") ?? null): Promise<Db> {
  if (url) return openPostgresDb(url, dataHome.home);
  return Promise.resolve(openDb(dataHome.dbFile));
}

export { schema };
