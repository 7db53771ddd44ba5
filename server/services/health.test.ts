// /api/health as a probe reads it over HTTP: which database, whether it answers, the migration level, which server.
// On PostgreSQL the database is stopped and started again under a running console: 503 while it is away, ok again
// after, on the same pool, without restarting anything.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, migrationsFolder, openDb, openPostgresDb, type Db } from "../../db/client";
import { databaseUnreachableMessage, postgresPool } from "../../db/dialect";
import { users } from "../../db/schema";
import { startThrowawayCluster, type ThrowawayCluster } from "../../scripts/postgres";
import { serveFetch } from "../test-support/http-server";
import { describeNeeding, postgresql } from "../test-support/needs";
import { healthAnswer, SERVER_ID } from "./health";

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
      expect(SERVER_ID).toBe(`${os.hostname()}:${process.pid}`);
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
});
