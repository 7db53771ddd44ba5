import type { Db } from "../../db/client";
import { watchSummary } from "./catalog/catalog";
import pkg from "../../package.json" with { type: "json" };

export function healthReport(db: Db) {
  let database: "ok" | "error" = "ok";
  let databaseError: string | undefined;
  try {
    db.$client.prepare("SELECT 1").get();
  } catch (e) {
    database = "error";
    databaseError = (e as Error).message;
  }
  return {
    status: database === "ok" ? ("ok" as const) : ("degraded" as const),
    version: pkg.version,
    database,
    ...(databaseError ? { databaseError } : {}),
    // The process's, not this module's: Next loads it on the first request, which made a long-running console report 0.
    uptimeSeconds: Math.round(process.uptime()),
    // Never waits on the watcher: a count of what it does, read from memory.
    watcher: watchSummary(),
  };
}
