// The one place that knows a transaction differs by database. PostgreSQL's drizzle transactions take an async
// callback on a connection of their own. better-sqlite3's take only a synchronous one, and the console has a
// single connection: so on SQLite an async transaction is BEGIN IMMEDIATE ... COMMIT on that connection, with
// transactions queued one after another. A transaction begun inside another joins it (as drizzle's would nest
// through a savepoint, here flattened: every caller today wants all-or-nothing). While a SQLite transaction awaits,
// another request's query on the same connection runs inside it; keep the callback to database work.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Db } from "./client";
import { dbKind } from "./dialect";

const inside = new AsyncLocalStorage<Db>();
const queues = new WeakMap<object, Promise<void>>();

/** Runs `fn` in one transaction: all its writes commit together, or none when it throws. */
export async function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  const open = inside.getStore();
  if (open) return fn(open);
  if (dbKind(db) === "postgres") {
    const pgDb = db as unknown as { transaction<R>(cb: (tx: unknown) => Promise<R>): Promise<R> };
    return pgDb.transaction((tx) => inside.run(tx as Db, () => fn(tx as Db)));
  }
  const before = queues.get(db) ?? Promise.resolve();
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  queues.set(db, before.then(() => done));
  await before;
  const client = db.$client;
  try {
    client.prepare("BEGIN IMMEDIATE").run();
    try {
      const result = await inside.run(db, () => fn(db));
      client.prepare("COMMIT").run();
      return result;
    } catch (err) {
      if (client.inTransaction) client.prepare("ROLLBACK").run();
      throw err;
    }
  } finally {
    release();
  }
}
