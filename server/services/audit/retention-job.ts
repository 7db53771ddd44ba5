// Switching retention on: with OMNIFORGE_AUDIT_RETENTION_DAYS set, the console archives events older than that
// many days to JSONL files in the data home's audit-archive folder (retention.ts does the archiving), at start
// and then daily. Unset or 0 keeps every event in the database. One job per process, however often the
// bootstrap runs.
import { desc } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { auditArchives } from "../../../db/schema";
import { env } from "../../../env";
import type { DataHome } from "../../config";
import { processWide } from "../../process-wide";
import { count } from "../../domain/plural";
import { startRetention } from "./retention";

export interface RetentionStatus {
  /** Days of events kept in the database; null keeps everything. */
  days: number | null;
  /** Where archives are written. */
  archiveDir: string;
  lastArchive: { count: number; firstId: number; lastId: number; at: number; file: string } | null;
}

// A box: the job is replaced when the days change and dropped when stopped.
const job = processWide("auditRetention", () => ({ current: undefined as { stop: () => void; days: number } | undefined }));

export function retentionDays(days: number = env.OMNIFORGE_AUDIT_RETENTION_DAYS): number | null {
  return days > 0 ? days : null;
}

/** Starts the daily archiving when a retention is set; returns the days it keeps (null: keeping everything). */
export function ensureRetentionJob(db: Db, dataHome: DataHome, days: number | null = retentionDays()): number | null {
  if (days === null) return null;
  const box = job();
  if (box.current?.days === days) return days;
  box.current?.stop();
  box.current = { stop: startRetention(db, { days, dir: dataHome.archiveDir }), days };
  console.log(`[omniforge] audit retention: events older than ${count(days, "day", "days", { group: false })} are archived to ${dataHome.archiveDir}`);
  return days;
}

export function stopRetentionJob(): void {
  const box = job();
  box.current?.stop();
  box.current = undefined;
}

/** What the audit page says about retention. */
export async function retentionStatus(db: Db, dataHome: DataHome, days: number | null = retentionDays()): Promise<RetentionStatus> {
  const [last] = await db.select().from(auditArchives).orderBy(desc(auditArchives.lastId)).limit(1);
  return {
    days,
    archiveDir: dataHome.archiveDir,
    lastArchive: last ? { count: last.count, firstId: last.firstId, lastId: last.lastId, at: last.archivedAt, file: last.file } : null,
  };
}
