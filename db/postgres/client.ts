// PostgreSQL through drizzle's node-postgres driver, with the db/migrations/postgres migrations applied. The pool is
// the one the console's database (db/client.ts) and `omniforge db copy` both use; PgDb, over the derived PostgreSQL
// tables, is what the copy and the schema tests speak.
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { migrationsFolder } from "../migrations-folder";
import * as schema from "./schema";

export type PgDb = NodePgDatabase<typeof schema> & { $client: pg.Pool };

/**
 * bigint (int8) columns hold epoch-ms dates, ids and counts: read them as numbers, as SQLite gives them, so the
 * shared schema's decoders (new Date(ms), ...) work unchanged. Every value fits in 2^53. Set on pg's global parsers,
 * not per pool: drizzle passes its own type parsers with every query, and they fall back to the global ones.
 */
function readBigintAsNumber(): void {
  pg.types.setTypeParser(pg.types.builtins.INT8, (v: string) => Number(v));
}

/**
 * How long a query may go unanswered before it fails as the database not answering. The longest the console asks in
 * normal work is well under a second (a chain lock's wait, a dashboard count at 1,000,000 rows); a database that stopped
 * answering without closing its connections (a network partition, a stuck server, a failover that never resets the
 * old ones) held each query, and its connection, for as long as the kernel kept the socket: the pool's four were
 * gone, and the console answered nothing after the database was back. A query that times out gives its connection
 * back broken, so the pool drops it. Migrations run without it (migratePostgres): an index on a large table may
 * take longer.
 */
export const QUERY_TIMEOUT_MS = 60_000;

export interface PoolOptions {
  /** QUERY_TIMEOUT_MS unless given (tests of a database that stops answering); 0 for none. */
  queryTimeoutMs?: number;
}

/** A pool on the database the URL names; nothing is connected until the first query. */
export function newPool(url: string, opts: PoolOptions = {}): pg.Pool {
  readBigintAsNumber();
  // A database that does not answer fails a request after 5 s instead of holding it forever; a pool whose server
  // went away makes new connections on the next query, so the console recovers when the database is back.
  const queryTimeout = opts.queryTimeoutMs ?? QUERY_TIMEOUT_MS;
  const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 5_000, ...(queryTimeout ? { query_timeout: queryTimeout } : {}) });
  // An idle client whose server went away emits "error" on the pool; without a listener that ends the process.
  pool.on("error", () => {});
  // A client lent out (inside a transaction, between two of its queries) has no listener of the pool's: its server
  // going away then threw from the socket and ended the process. The query awaiting it still fails, and the pool
  // drops the client when it comes back (it is no longer queryable).
  pool.on("connect", (client) => client.on("error", () => {}));
  return pool;
}

/** A drizzle database over the derived PostgreSQL tables (db copy, schema tests). */
export function openPostgres(url: string): PgDb {
  return drizzle(newPool(url), { schema }) as PgDb;
}

/**
 * Applies the PostgreSQL migrations not applied yet (drizzle's journal in the drizzle schema), on a pool of their own
 * without the query timeout (an index on a large table may take minutes), closed after.
 */
export async function migratePostgres(db: { $client: pg.Pool }): Promise<void> {
  const { connectionString } = db.$client.options as pg.PoolConfig;
  const own = drizzle(newPool(connectionString!, { queryTimeoutMs: 0 }), { schema });
  try {
    await migrate(own, { migrationsFolder: migrationsFolder("postgres") });
  } finally {
    await own.$client.end();
  }
}

/** The migration level: how many of the dialect's migrations the database has recorded. */
export async function postgresMigrationLevel(db: { $client: pg.Pool }): Promise<number> {
  // One statement (health asks it of every probe): a database the console never migrated has no such table (42P01).
  try {
    const counted = await db.$client.query<{ n: string }>("SELECT count(*) AS n FROM drizzle.__drizzle_migrations");
    return Number(counted.rows[0]!.n);
  } catch (e) {
    if ((e as { code?: string }).code === UNDEFINED_TABLE) return 0;
    throw e;
  }
}

const UNDEFINED_TABLE = "42P01";

/** A URL fit to print: the password replaced. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(not a URL)";
  }
}
