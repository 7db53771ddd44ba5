// Locks the database holds for us, so that servers sharing one database take turns without a coordinator of their
// own (docs/deploy.md). PostgreSQL has advisory locks: a transaction's lock ends with it, a session's when its
// connection closes, so a server that dies never leaves one behind. SQLite has only the file's write lock, held by
// a transaction; SQLite also means one machine, so a job's lock there is a file naming the process that holds it.
import fs from "node:fs";
import path from "node:path";
import { sql, type SQL } from "drizzle-orm";
import { dataHomeOfDb, type Db } from "./client";
import { dbKind, postgresPool } from "./dialect";

/**
 * What the locks serialize: appends to the audit chain (and the removals that cut it), each background job, and the
 * telemetry intake's read of counters' last values with the write of the rows computed from them.
 */
export type LockName = "audit-chain" | "audit-retention" | "telemetry-counters";

const lockKey = (name: LockName) => `omniforge:${name}`;

/**
 * Inside a transaction: waits until no other transaction holds `name`, and holds it until this one ends. On SQLite
 * nothing to do: the transaction began with BEGIN IMMEDIATE, which already holds the file's one write lock.
 */
export async function lockForTransaction(tx: Db, name: LockName): Promise<void> {
  // By kind, not by pool: a drizzle transaction object has no $client of its own.
  if (dbKind(tx) !== "postgres") return;
  // execute() is the node-postgres database's way to run raw SQL (Db is typed as the SQLite one: db/client.ts).
  await (tx as unknown as { execute(q: SQL): Promise<unknown> }).execute(sql`SELECT pg_advisory_xact_lock(hashtext(${lockKey(name)}))`);
}

/** lockForTransaction on a pool's connection inside its own BEGIN (the audit writer's append, which runs plain SQL). */
export async function lockOnConnection(client: { query(text: string, values: unknown[]): Promise<unknown> }, name: LockName): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [lockKey(name)]);
}

/**
 * Runs `fn` holding `name` across servers, after waiting for any other holder on the same database. On PostgreSQL a
 * session lock on a connection kept for it: `fn`'s queries go through the pool's other connections and commit in
 * transactions of their own (the audit writer's batches), all of them inside the lock. On SQLite (one machine, one
 * console) the caller's own queue in this process is the whole of it. A connection whose unlock failed is dropped,
 * never given back with the lock on it (closing it is what ends a session lock).
 */
export async function runLocked<T>(db: Db, name: LockName, fn: () => Promise<T>): Promise<T> {
  const pool = postgresPool(db);
  if (!pool) return fn();
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query("SELECT pg_advisory_lock(hashtext($1))", [lockKey(name)]).catch((e: Error) => Promise.reject((broken = e)));
    try {
      return await fn();
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext($1))", [lockKey(name)]).catch((e: Error) => void (broken = e));
    }
  } finally {
    client.release(broken);
  }
}

export type Alone<T> = { ran: true; value: T } | { ran: false };

const heldHere = new Set<string>();

/**
 * Runs `fn` unless another server (or another job of this process) is running the job `name` on the same
 * database; then returns { ran: false } at once, without waiting.
 */
export async function runAlone<T>(db: Db, name: LockName, fn: () => Promise<T>): Promise<Alone<T>> {
  const pool = postgresPool(db);
  if (pool) {
    // A session lock on a connection kept for the job: the job's own queries go through the pool's other ones.
    const client = await pool.connect();
    // A connection whose lock or unlock failed goes back broken: the pool drops it (and with it the lock), never
    // lends it out again still holding the job's lock or waiting for an answer.
    let broken: Error | undefined;
    try {
      const { rows } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock(hashtext($1)) AS ok", [lockKey(name)]).catch((e: Error) => Promise.reject((broken = e)));
      if (!rows[0]?.ok) return { ran: false };
      try {
        return { ran: true, value: await fn() };
      } finally {
        await client.query("SELECT pg_advisory_unlock(hashtext($1))", [lockKey(name)]).catch((e: Error) => Promise.reject((broken = e)));
      }
    } finally {
      client.release(broken);
    }
  }
  const home = dataHomeOfDb(db);
  const id = `${home ?? "memory"}:${name}`;
  if (heldHere.has(id)) return { ran: false };
  const file = home ? path.join(/*turbopackIgnore: true*/ home, `.${name}.lock`) : null;
  if (file && !takeLockFile(file)) return { ran: false };
  heldHere.add(id);
  try {
    return { ran: true, value: await fn() };
  } finally {
    heldHere.delete(id);
    if (file) fs.rmSync(file, { force: true });
  }
}

/** Creates the lock file naming this process; a file left by a process that is gone is taken over. */
function takeLockFile(file: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: "wx", mode: 0o600 });
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const holder = Number.parseInt(fs.readFileSync(file, "utf8"), 10);
    // Our own pid here is a file this process left when it stopped mid-job under another life of this module.
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) return false;
    fs.rmSync(file, { force: true });
  }
  return false;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
