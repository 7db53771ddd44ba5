// /api/health as a probe reads it over HTTP: which database, whether it answers, the migration level, which server.
// On PostgreSQL the database is stopped and started again under a running console: 503 while it is away, ok again
// after, on the same pool, without restarting anything: the first probe after the restart says ok, also with requests
// retrying all through the outage and transactions begun as it went away.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, migrationsFolder, openDb, openPostgresDb, postgresDb, type Db } from "../../db/client";
import { databaseUnreachableMessage, postgresPool } from "../../db/dialect";
import { migratePostgres, type PgDb } from "../../db/postgres/client";
import { users } from "../../db/schema";
import { inTransaction } from "../../db/transaction";
import { startThrowawayCluster, type ThrowawayCluster } from "../../scripts/postgres";
import { serveFetch } from "../test-support/http-server";
import { describeNeeding, postgresql } from "../test-support/needs";
import { healthAnswer, healthReport } from "./health";
import { SERVER_ID } from "./server-id";

/** The console's health route over a real HTTP server on 127.0.0.1, for the database `db`. */
async function serveHealth(db: Db) {
  const server = await serveFetch(async () => {
    const { status, body } = await healthAnswer(async () => ({ db }));
    return Response.json(body, { status });
  });
  const probe = async () => {
    const res = await fetch(`${server.url}/api/health`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { probe, close: server.close };
}

const migrations = (dialect: "sqlite" | "postgres") => readMigrationFiles({ migrationsFolder: migrationsFolder(dialect) }).length;

describe("the health report", () => {
  // It counted from the first request that loaded this module, so a console up for an hour reported 0 on its first check.
  it("gives the process's uptime, not the time since the report was first asked for", async () => {
    await new Promise((r) => setTimeout(r, 1600));
    const { healthReport } = await import("./health");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-health-"));
    const file = path.join(dir, "console.db");
    try {
      const report = await healthReport(openDb(file));
      expect(report.status).toBe("ok");
      expect(report.uptimeSeconds).toBeGreaterThanOrEqual(2);
      expect(report.uptimeSeconds).toBeLessThanOrEqual(Math.round(process.uptime()));
    } finally {
      closeDb(file);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("on SQLite: names the database kind, its migration level and this server", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-health-"));
    const file = path.join(dir, "console.db");
    const s = await serveHealth(openDb(file));
    try {
      expect(await s.probe()).toMatchObject({ status: 200, body: { status: "ok", database: "ok", databaseKind: "sqlite", migrationLevel: migrations("sqlite"), server: SERVER_ID } });
      expect(SERVER_ID.startsWith(`${os.hostname()}:${process.pid}:`)).toBe(true);
    } finally {
      await s.close();
      closeDb(file);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describeNeeding(postgresql(), "the health report on PostgreSQL", () => {
  let cluster: ThrowawayCluster;
  let home: string;
  beforeAll(async () => {
    cluster = await startThrowawayCluster();
    home = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-health-"));
  }, 120_000);
  afterAll(() => {
    cluster?.stop();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  it("says 503 while the database is stopped, requests fail with one clear error, and it recovers by itself", async () => {
    const db = await openPostgresDb(cluster.url, home);
    const s = await serveHealth(db);
    try {
      expect(await s.probe()).toMatchObject({ status: 200, body: { status: "ok", database: "ok", databaseKind: "postgres", migrationLevel: migrations("postgres"), server: SERVER_ID } });

      cluster.pause();
      const down = await s.probe();
      expect(down).toMatchObject({ status: 503, body: { status: "degraded", database: "error", databaseKind: "postgres", migrationLevel: null } });
      expect(down.body.databaseError).toMatch(/^The database does not answer/);
      expect(JSON.stringify(down.body)).not.toContain(cluster.url);
      const failed = await db.select().from(users).then(
        () => null,
        (e: unknown) => e,
      );
      expect(databaseUnreachableMessage(failed)).toMatch(/^The database does not answer/);

      cluster.resume();
      expect(await s.probe()).toMatchObject({ status: 200, body: { status: "ok", database: "ok", migrationLevel: migrations("postgres") } });
      expect(await db.select().from(users)).toEqual([]);
    } finally {
      await s.close();
      await postgresPool(db)!.end();
    }
  });

  // drizzle's own pool transaction kept the connection when BEGIN failed: every transaction begun as the database
  // went away cost the pool a connection for good (4 in all), so a console could stay down after the database came back.
  it("a transaction whose BEGIN meets a stopped database gives its connection back, and the pool serves after the restart", async () => {
    const db = postgresDb(cluster.url, home);
    await migratePostgres(db as unknown as PgDb);
    const pool = postgresPool(db)!;
    try {
      // Connections left idle in the pool, as a console has between requests.
      await Promise.all(Array.from({ length: pool.options.max }, () => db.select().from(users)));
      expect(pool.idleCount).toBe(pool.options.max);
      cluster.pause();
      // Asked at once: the pool lends an idle connection before its socket has told it the server is gone.
      const failed = await inTransaction(db, async (tx) => tx.select().from(users)).then(
        () => null,
        (e: unknown) => e,
      );
      expect(databaseUnreachableMessage(failed)).toMatch(/^The database does not answer/);
      expect(pool.totalCount - pool.idleCount).toBe(0);
      cluster.resume();
      // The first health report after the restart says ok, though the pool still held connections from before.
      expect(await healthReport(db)).toMatchObject({ status: "ok", database: "ok" });
      expect(await inTransaction(db, async (tx) => tx.select().from(users))).toEqual([]);
    } finally {
      await pool.end();
    }
  });

  // The two-server bench counted 7-11 s from PostgreSQL accepting to both healths 200; the pool itself needs no time:
  // the first probe after the restart answers 200 even with requests failing and retrying all through the outage.
  it("under requests retrying through the outage, the first probe after the restart answers 200", async () => {
    // A pool of its own: the test above ended the cached one.
    const db = postgresDb(cluster.url, home);
    await migratePostgres(db as unknown as PgDb);
    const s = await serveHealth(db);
    const pool = postgresPool(db)!;
    let stop = false;
    const outcomes = { ok: 0, unreachable: 0, other: [] as string[] };
    const request = async (i: number) => {
      try {
        if (i % 2) await db.select().from(users);
        else await inTransaction(db, async (tx) => tx.select().from(users));
        outcomes.ok++;
      } catch (e) {
        if (databaseUnreachableMessage(e)) outcomes.unreachable++;
        else outcomes.other.push((e as Error).message);
      }
    };
    // More requests at once than the pool has connections, each asking again as soon as it has its answer.
    const load = Array.from({ length: 3 * pool.options.max }, async (_, i) => {
      while (!stop) {
        await request(i);
        await new Promise((r) => setImmediate(r));
      }
    });
    try {
      expect((await s.probe()).status).toBe(200);
      // A connection lent out between two queries of its transaction when the server goes away: its error used to
      // reach the process as an uncaught exception.
      const lent = await pool.connect();
      await lent.query("BEGIN");
      cluster.pause();
      const down = [await s.probe(), await s.probe()];
      expect(down.map((p) => p.status)).toEqual([503, 503]);
      const inLent = await lent.query("SELECT 1").then(
        () => null,
        (e: unknown) => e,
      );
      expect(databaseUnreachableMessage(inLent)).toMatch(/^The database does not answer/);
      lent.release();
      const failedWhileDown = outcomes.unreachable;
      expect(failedWhileDown).toBeGreaterThan(0);

      cluster.resume();
      expect(await s.probe()).toMatchObject({ status: 200, body: { status: "ok", database: "ok", migrationLevel: migrations("postgres") } });
      const answeredBefore = outcomes.ok;
      await request(1);
      expect(outcomes.ok).toBeGreaterThan(answeredBefore);
      expect(outcomes.other).toEqual([]);
    } finally {
      stop = true;
      await Promise.all(load);
      await s.close();
      await postgresPool(db)!.end();
    }
  });

  // The two-server bench's browsers probe health every fifth request: a ping, a look for the journal and its count were
  // three statements a probe; the count alone answers both (and says 0 on a database never migrated).
  it("asks one statement of the database per probe, and says level 0 for a database never migrated", async () => {
    const db = postgresDb(cluster.url, home);
    await migratePostgres(db as unknown as PgDb);
    const pool = postgresPool(db)!;
    const bare = postgresDb(cluster.urlFor("template1"), home);
    try {
      const sent: unknown[] = [];
      const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
      (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => (sent.push(args[0]), query(...args));
      expect(await healthReport(db)).toMatchObject({ status: "ok", migrationLevel: migrations("postgres") });
      expect(sent).toHaveLength(1);
      expect(await healthReport(bare)).toMatchObject({ status: "ok", database: "ok", migrationLevel: 0 });
    } finally {
      await pool.end();
      await postgresPool(bare)!.end();
    }
  });
});
