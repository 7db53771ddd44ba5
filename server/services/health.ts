// /api/health: whether this server can serve. Says which database it runs on, whether it answers and at which
// migration level, and which server answered (several may run behind one proxy), so a probe or a person can tell
// a stopped database from a stopped server; and how fresh this server's index is (when it last scanned, a digest
// of what it serves), so a server lagging behind the others on a shared data home shows. A database that does not
// answer makes it 503; the pool reconnects by itself when the database is back (db/postgres/client.ts), so the
// next probe says ok without a restart.
import type { Db } from "../../db/client";
import { dbKind, databaseUnreachableMessage, ping, type DbKind } from "../../db/dialect";
import { indexFreshness, watchSummary, type IndexFreshness } from "./catalog/catalog";
import pkg from "../../package.json" with { type: "json" };
import { resolveDataHome, type DataHome } from "../config";
import { SERVER_ID } from "./server-id";

export interface HealthReport {
  status: "ok" | "degraded";
  version: string;
  server: string;
  database: "ok" | "error";
  databaseKind: DbKind;
  /** How many of the dialect's migrations the database has recorded; null when it does not answer. */
  migrationLevel: number | null;
  databaseError?: string;
  uptimeSeconds: number;
  watcher: ReturnType<typeof watchSummary>;
  /** How fresh this server's index of the data home is (servers on one data home compare their digests). */
  index: IndexFreshness;
}

export async function healthReport(db: Db, dataHome: DataHome = resolveDataHome()): Promise<HealthReport> {
  let database: "ok" | "error" = "ok";
  let databaseError: string | undefined;
  let level: number | null = null;
  try {
    level = await ping(db);
  } catch (e) {
    database = "error";
    databaseError = databaseUnreachableMessage(e) ?? (e as Error).message;
  }
  return {
    status: database === "ok" ? "ok" : "degraded",
    version: pkg.version,
    server: SERVER_ID,
    database,
    databaseKind: dbKind(db),
    migrationLevel: level,
    ...(databaseError ? { databaseError } : {}),
    // The process's, not this module's: Next loads it on the first request, which made a long-running console report 0.
    uptimeSeconds: Math.round(process.uptime()),
    // Never waits on the watcher: a count of what it does, read from memory.
    watcher: watchSummary(),
    index: indexFreshness(dataHome),
  };
}

/** The HTTP answer: 200 when the database answers, else 503 (also when the console could not start at all). */
export async function healthAnswer(ready: () => Promise<{ db: Db }>): Promise<{ status: number; body: Record<string, unknown> }> {
  try {
    const { db } = await ready();
    const report = await healthReport(db);
    return { status: report.status === "ok" ? 200 : 503, body: { ...report } };
  } catch (e) {
    return { status: 503, body: { status: "error", server: SERVER_ID, database: "error", error: databaseUnreachableMessage(e) ?? (e as Error).message } };
  }
}
