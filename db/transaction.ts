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
import { dbKind } from "./dialect";

const inside = new AsyncLocalStorage<{ db: Db; tx: Db; open: boolean }>();
const queues = new WeakMap<object, Promise<void>>();

/** Runs `fn` in one transaction: all its writes commit together, or none when it throws. */
export async function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  const outer = inside.getStore();
  if (outer?.open && (db === outer.db || db === outer.tx)) return fn(outer.tx);
  if (dbKind(db) === "postgres") {
    const pgDb = db as unknown as { transaction<R>(cb: (tx: unknown) => Promise<R>): Promise<R> };
    return pgDb.transaction(async (tx) => {
      const store = { db, tx: tx as Db, open: true };
      try {
        return await inside.run(store, () => fn(tx as Db));
      } finally {
        store.open = false;
      }
    });
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
