// PostgreSQL's own limits on the console's connections (db/postgres/client.ts): a statement running past the
// statement timeout is cancelled by the server, not only given up by the client, and a transaction left idle is ended
// by the server with its locks. The limits are shortened here to a fraction of a second; the waits below are for
// events (an error, a lock granted, a connection ended), never for time.
import { sql, type SQL } from "drizzle-orm";
import type pg from "pg";
import { afterEach, beforeEach, expect, it } from "vitest";
import { postgresDb, type Db } from "../client";
import { databaseUnreachableMessage, postgresPool } from "../dialect";
import { runLocked } from "../locks";
import { inTransaction } from "../transaction";
import { newPool, type PoolOptions } from "./client";
import { describeOnPostgres } from "../../server/test-support/needs";
import { tempDb, type TempDb } from "../../server/test-support/temp-db";

const failure = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as Error & { code?: string });
/** Raw SQL through drizzle's node-postgres database or transaction (Db is typed as the SQLite one: db/client.ts). */
const execute = (db: Db, q: SQL) => (db as unknown as { execute(q: SQL): Promise<{ rows: Record<string, unknown>[] }> }).execute(q);

describeOnPostgres("PostgreSQL's own limits on the console's connections", "only a PostgreSQL server cancels a statement or ends a transaction by itself", () => {
  let t: TempDb;
  let db: Db;
  /** Another server's pool on the same database, with the console's usual limits: it watches and takes locks. */
  let other: pg.Pool;
  const open = (opts: PoolOptions) => (db = postgresDb(t.url!, t.dir, opts));
  beforeEach(async () => {
    t = tempDb();
    other = newPool(t.url!);
    await other.query("CREATE TABLE probe (id integer PRIMARY KEY, n integer NOT NULL)");
    await other.query("INSERT INTO probe VALUES (1, 1)");
  });
  afterEach(async () => {
    await postgresPool(db)!.end();
    await other.end();
    await t.cleanup();
  });

  it("a statement past the statement timeout is cancelled by the server; its connection answers the next query and nothing of it still runs", async () => {
    open({ statementTimeoutMs: 200 });
    const pool = postgresPool(db)!;
    const client = await pool.connect();
    try {
      const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      const cancelled = await failure(client.query("SELECT pg_sleep(600)"));
      expect(cancelled).toMatchObject({ code: "57014", message: "canceling statement due to statement timeout" });
      // The same connection, not a new one: the server ended the statement, so the connection was free at once.
      expect((await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows).toEqual(rows);
    } finally {
      client.release();
    }
    const running = await other.query("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND state = 'active' AND pid <> pg_backend_pid()");
    expect(running.rows).toEqual([]);
  });

  it("every connection of the pool stuck on a long statement is freed by the server: the pool serves the next request, which a person is told was too slow", async () => {
    open({ statementTimeoutMs: 200 });
    const pool = postgresPool(db)!;
    const stuck = await Promise.all(Array.from({ length: pool.options.max }, () => failure(execute(db, sql`SELECT pg_sleep(600)`))));
    for (const e of stuck) expect(databaseUnreachableMessage(e)).toMatch(/^The database does not answer/);
    const inTx = await failure(inTransaction(db, async (tx) => execute(tx, sql`SELECT pg_sleep(600)`)));
    expect(databaseUnreachableMessage(inTx)).toMatch(/^The database does not answer/);
    expect((await execute(db, sql`SELECT n FROM probe`)).rows).toEqual([{ n: 1 }]);
    const running = await other.query("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND state = 'active' AND pid <> pg_backend_pid()");
    expect(running.rows).toEqual([]);
  });

  it("a transaction left idle is ended by the server: its row lock goes to another server's update, and its own commit fails", async () => {
    open({ idleInTransactionTimeoutMs: 200 });
    let locked!: () => void;
    const holding = new Promise<void>((r) => (locked = r));
    let resume!: () => void;
    const stuckElsewhere = new Promise<void>((r) => (resume = r));
    // A request whose transaction locked the row, then waits on something that is not the database.
    const left = failure(
      inTransaction(db, async (tx) => {
        await execute(tx, sql`SELECT n FROM probe WHERE id = 1 FOR UPDATE`);
        locked();
        await stuckElsewhere;
        await execute(tx, sql`UPDATE probe SET n = 2 WHERE id = 1`);
      }),
    );
    await holding;
    // Waits for the row until PostgreSQL has ended the idle transaction (without the limit, for ever).
    await other.query("UPDATE probe SET n = 3 WHERE id = 1");
    resume();
    expect(databaseUnreachableMessage(await left)).toMatch(/^The database does not answer/);
    expect((await other.query("SELECT n FROM probe")).rows).toEqual([{ n: 3 }]);
    // The pool dropped the ended connection and serves on a new one.
    expect((await execute(db, sql`SELECT n FROM probe`)).rows).toEqual([{ n: 3 }]);
  });

  it("a job's session lock outlives the idle limit: its connection waits outside any transaction", async () => {
    open({ idleInTransactionTimeoutMs: 200 });
    const key = "omniforge:audit-retention";
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    let finish!: () => void;
    const holding = new Promise<void>((r) => (finish = r));
    const job = runLocked(db, "audit-retention", async () => {
      started();
      await holding;
      return "done";
    });
    await running;
    // A transaction begun after the lock was taken, on the same pool, and ended by the server for idling: the
    // limit has passed for the lock's connection too.
    const idle = await postgresPool(db)!.connect();
    const ended = new Promise<void>((r) => idle.once("end", () => r()));
    await idle.query("BEGIN");
    await ended;
    idle.release(new Error("ended by the server"));
    expect((await other.query("SELECT pg_try_advisory_lock(hashtext($1)) AS ok", [key])).rows).toEqual([{ ok: false }]);
    finish();
    expect(await job).toBe("done");
    expect((await other.query("SELECT pg_try_advisory_lock(hashtext($1)) AS ok", [key])).rows).toEqual([{ ok: true }]);
    await other.query("SELECT pg_advisory_unlock(hashtext($1))", [key]);
  });
});
