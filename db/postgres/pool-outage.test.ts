// The console's pool when PostgreSQL stops answering without closing anything (a network partition, a server stuck,
// a failover whose old connections are never reset): the pool's connections must come back to it, and a request
// waiting for one must fail with the one 503 line. A TCP proxy in front of the run's cluster plays the database.
import { afterEach, beforeEach, expect, it } from "vitest";
import { postgresDb, type Db } from "../client";
import { databaseUnreachableMessage, postgresPool } from "../dialect";
import { users } from "../schema";
import { inTransaction } from "../transaction";
import { runAlone } from "../locks";
import { describeOnPostgres } from "../../server/test-support/needs";
import { tcpProxy, type TcpProxy } from "../../server/test-support/tcp-proxy";
import { tempDb, type TempDb } from "../../server/test-support/temp-db";

const failure = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e);

describeOnPostgres("the pool while the database does not answer", "only a database server can stop answering a pool", () => {
  let t: TempDb;
  let proxy: TcpProxy;
  let db: Db;
  /** The console's pool, through the proxy; `queryTimeoutMs` shortened where a test waits for it to pass. */
  const open = (queryTimeoutMs?: number) => (db = postgresDb(proxy.through(t.url!), t.dir, queryTimeoutMs ? { queryTimeoutMs } : {}));
  beforeEach(async () => {
    t = tempDb();
    proxy = await tcpProxy(Number(new URL(t.url!).port));
  });
  afterEach(async () => {
    proxy.restore();
    await postgresPool(db)!.end();
    await proxy.close();
    await t.cleanup();
  });

  it("a request waiting for a connection fails with the one line once the pool's connect timeout passes", async () => {
    open();
    const pool = postgresPool(db)!;
    await Promise.all(Array.from({ length: pool.options.max }, () => db.select().from(users)));
    proxy.freeze();
    const stuck = Array.from({ length: pool.options.max }, () => failure(db.select().from(users)));
    const waiting = await failure(db.select().from(users));
    expect(databaseUnreachableMessage(waiting)).toMatch(/^The database does not answer/);
    const inTx = await failure(inTransaction(db, async (tx) => tx.select().from(users)));
    expect(databaseUnreachableMessage(inTx)).toMatch(/^The database does not answer/);
    proxy.restore();
    expect(await Promise.all(stuck)).toEqual(Array(pool.options.max).fill(null));
  });

  it("connections stuck on a database that never answers them again come back to the pool: it serves once the database does", async () => {
    // The query timeout passes in a second here instead of a minute (QUERY_TIMEOUT_MS).
    open(1_000);
    const pool = postgresPool(db)!;
    await Promise.all(Array.from({ length: pool.options.max }, () => db.select().from(users)));
    proxy.freeze();
    const stuck = [failure(db.select().from(users)), failure(inTransaction(db, async (tx) => tx.select().from(users))), failure(db.select().from(users)), failure(db.select().from(users))];
    // The database is back, on new connections; the old ones are never answered (as after a failover).
    proxy.forget();
    for (const e of await Promise.all(stuck)) expect(databaseUnreachableMessage(e)).toMatch(/^The database does not answer/);
    expect(await db.select().from(users)).toEqual([]);
    expect(await inTransaction(db, async (tx) => tx.select().from(users))).toEqual([]);
  });

  it("a job whose lock could not be taken gives its connection back broken: the next run of the job takes the lock", async () => {
    open(1_000);
    await db.select().from(users);
    proxy.freeze();
    const failed = await failure(runAlone(db, "audit-retention", async () => "ran"));
    expect(databaseUnreachableMessage(failed)).toMatch(/^The database does not answer/);
    proxy.forget();
    expect(await runAlone(db, "audit-retention", async () => "ran")).toEqual({ ran: true, value: "ran" });
  });
});
