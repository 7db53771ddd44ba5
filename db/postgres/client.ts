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

/**
 * How long PostgreSQL itself lets one statement of the console's run before it cancels it (SQLSTATE 57014): a little
 * under QUERY_TIMEOUT_MS, so on a database that answers the server gives up first. The client's timeout only stops
 * waiting: the statement went on running, a transaction's ROLLBACK queued behind it, and the connection, dropped by
 * the pool, held its locks until it ended. A statement the server cancels ends there: the ROLLBACK answers at once,
 * the connection is free for its next query (the pool's own query() still closes a connection after any error), and
 * nothing of it runs on. A lock's wait counts as part of its statement: a request waiting on another's row or
 * advisory lock stops at this too.
 */
export const STATEMENT_TIMEOUT_MS = 55_000;

/**
 * How long PostgreSQL lets a transaction of the console's sit idle (begun, no statement running) before it ends the
 * session, which rolls the transaction back and frees its locks. A console transaction runs its statements one after
 * another with little work between them; one idle this long was left open by a request stuck on something else. Under
 * STATEMENT_TIMEOUT_MS, so a request waiting for such a transaction's row lock gets it before its own statement is
 * cancelled. Session locks (runLocked, runAlone: db/locks.ts) are held on a connection outside any transaction, which
 * this does not touch.
 */
export const IDLE_IN_TRANSACTION_TIMEOUT_MS = 30_000;

export interface PoolOptions {
  /** QUERY_TIMEOUT_MS unless given (tests of a database that stops answering); 0 for none. */
  queryTimeoutMs?: number;
  /** STATEMENT_TIMEOUT_MS unless given (tests of a statement the server cancels); 0 for the server's own setting. */
  statementTimeoutMs?: number;
  /** IDLE_IN_TRANSACTION_TIMEOUT_MS unless given (tests of a transaction left open); 0 for the server's own setting. */
  idleInTransactionTimeoutMs?: number;
}

/** A pool on the database the URL names; nothing is connected until the first query. */
export function newPool(url: string, opts: PoolOptions = {}): pg.Pool {
  readBigintAsNumber();
  // A database that does not answer fails a request after 5 s instead of holding it forever; a pool whose server
  // went away makes new connections on the next query, so the console recovers when the database is back.
  const queryTimeout = opts.queryTimeoutMs ?? QUERY_TIMEOUT_MS;
  const limits = serverLimits(opts.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS, opts.idleInTransactionTimeoutMs ?? IDLE_IN_TRANSACTION_TIMEOUT_MS);
  const pool = new pg.Pool({
    connectionString: url,
    max: 4,
    connectionTimeoutMillis: 5_000,
    ...(queryTimeout ? { query_timeout: queryTimeout } : {}),
    // The server's limits are set on each new connection before the pool lends it out; one whose SET failed goes back
    // broken and its request fails. Not as startup parameters (node-postgres's statement_timeout option): PgBouncer
    // refuses a connection whose startup sends one it does not track, so a console behind one would not connect.
    ...(limits ? { verify: (client: pg.PoolClient, done: (err?: Error) => void) => void client.query(limits).then(() => done(), done) } : {}),
  });
  // An idle client whose server went away emits "error" on the pool; without a listener that ends the process.
  pool.on("error", () => {});
  // A client lent out (inside a transaction, between two of its queries) has no listener of the pool's: its server
  // going away then threw from the socket and ended the process. The query awaiting it still fails, and the pool
  // drops the client when it comes back (it is no longer queryable).
  pool.on("connect", (client) => client.on("error", () => {}));
  return pool;
}

/** The SET of the server's limits a new connection runs (0: the server's own setting kept); empty when none. */
function serverLimits(statementMs: number, idleInTransactionMs: number): string {
  const set = (name: string, ms: number) => (ms > 0 ? [`SET ${name} = ${Math.trunc(ms)}`] : []);
  return [...set("statement_timeout", statementMs), ...set("idle_in_transaction_session_timeout", idleInTransactionMs)].join("; ");
}

/** A drizzle database over the derived PostgreSQL tables (db copy, schema tests). */
export function openPostgres(url: string): PgDb {
  return drizzle(newPool(url), { schema }) as PgDb;
}

/**
 * Applies the PostgreSQL migrations not applied yet (drizzle's journal in the drizzle schema), on a pool of their own
 * without the query or statement timeout (an index on a large table may take minutes), closed after.
 */
export async function migratePostgres(db: { $client: pg.Pool }): Promise<void> {
  const { connectionString } = db.$client.options as pg.PoolConfig;
  const own = drizzle(newPool(connectionString!, { queryTimeoutMs: 0, statementTimeoutMs: 0 }), { schema });
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
