// The one place that knows a transaction differs by database. PostgreSQL's drizzle transactions take an async
// callback on a connection of their own. better-sqlite3's take only a synchronous one, and the console has a
// single connection: so on SQLite an async transaction is BEGIN IMMEDIATE ... COMMIT on that connection, with
// transactions queued one after another. A transaction begun inside another joins it (as drizzle's would nest
// through a savepoint, here flattened: every caller today wants all-or-nothing), if it is on the same database and
// still open: a timer or a queued task started inside a transaction carries its context after it ended, and must
// begin a transaction of its own then, not run untransacted in a finished one. While a SQLite transaction awaits,
// another request's query on the same connection runs inside it; keep the callback to database work.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Db } from "./client";
import { NodePgSession } from "drizzle-orm/node-postgres";
import { databaseUnreachableMessage, dbKind, postgresPool } from "./dialect";

type PgTransactional = { transaction<R>(cb: (tx: unknown) => Promise<R>): Promise<R> };
/** What drizzle's node-postgres database is built from: a session over one connection is built the same way. */
type PgInternals = { dialect: ConstructorParameters<typeof NodePgSession>[1]; session: { options: ConstructorParameters<typeof NodePgSession>[3] }; _: ConstructorParameters<typeof NodePgSession>[2] };

const inside = new AsyncLocalStorage<{ db: Db; tx: Db; open: boolean }>();
const queues = new WeakMap<object, Promise<void>>();

/** Runs `fn` in one transaction: all its writes commit together, or none when it throws. */
export async function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  const outer = inside.getStore();
  if (outer?.open && (db === outer.db || db === outer.tx)) return fn(outer.tx);
  if (dbKind(db) === "postgres") {
    const run = async (tx: unknown) => {
      const store = { db, tx: tx as Db, open: true };
      try {
        return await inside.run(store, () => fn(tx as Db));
      } finally {
        store.open = false;
      }
    };
    const pool = postgresPool(db);
    if (!pool) return (db as unknown as PgTransactional).transaction(run);
    // The connection is taken and given back here, not by drizzle's pool transaction: that one never gives it back
    // when BEGIN fails (the database went away between the two), and each such connection was lost to the pool for
    // good, until a pool of 4 had none left. Given back broken, the pool drops it.
    // A connection whose query timed out still waits for that query's answer: given back as it is, it held up the
    // next request that took it. Given back with the error, the pool drops it.
    const client = await pool.connect();
    let unreachable: Error | undefined;
    try {
      const { dialect, session, _: schema } = db as unknown as PgInternals;
      return await new NodePgSession(client, dialect, schema, session.options).transaction(run);
    } catch (err) {
      if (databaseUnreachableMessage(err)) unreachable = err as Error;
      throw err;
    } finally {
      client.release(unreachable);
    }
  }
  const before = queues.get(db) ?? Promise.resolve();
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  queues.set(db, before.then(() => done));
  await before;
  const client = db.$client;
  const store = { db, tx: db, open: true };
  try {
    client.prepare("BEGIN IMMEDIATE").run();
    try {
      const result = await inside.run(store, () => fn(db));
      store.open = false;
      client.prepare("COMMIT").run();
      return result;
    } catch (err) {
      store.open = false;
      if (client.inTransaction) client.prepare("ROLLBACK").run();
      throw err;
    }
  } finally {
    store.open = false;
    release();
  }
}
