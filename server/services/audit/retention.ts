// Retention: the one sanctioned removal of audit rows. Old rows are first written to a JSONL archive (one
// stored row per line, exactly as stored, so the file can be verified on its own), the archive and the
// chain head it ends at are recorded in audit_archives, and only then are exactly those rows removed, in
// one transaction. Verification of the table then starts from that head, so the chain stays verifiable
// across the cut.
import fs from "node:fs";
import path from "node:path";
import { and, asc, between, count, desc, gt, gte, lte, max, min } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { lockForTransaction, runAlone } from "../../../db/locks";
import { inTransaction } from "../../../db/transaction";
import { auditArchives, auditEvents } from "../../../db/schema/audit";
import { GENESIS_HASH } from "./hash";
import { loadAuditKeys } from "./keys";
import { ROW_FIELDS } from "./rows";
import { flushAudit } from "./sink";
import { verifyArchiveFile, type VerifyResult } from "./verify";
import { setting, type EnvSource } from "../../../env";

export type ArchiveResult =
  | { archived: false; reason: string }
  | { archived: true; file: string; firstId: number; lastId: number; count: number; headHash: string };

const PAGE = 2_000;

/**
 * Archives the oldest events written before `cutoff` into `dir`. The archive is always a prefix of the
 * chain: it stops at the first row at or after the cutoff, so a row with an out-of-order time never
 * leaves a hole. A chain that does not verify is not archived (that would launder the break).
 */
export async function archiveBefore(db: Db, cutoff: Date | number, dir: string): Promise<ArchiveResult> {
  await flushAudit(db);
  const cut = typeof cutoff === "number" ? cutoff : cutoff.getTime();
  if (!Number.isFinite(cut)) throw new Error("archiveBefore: the cutoff is not a valid time.");
  const [prev] = await db.select({ id: auditArchives.lastId, hash: auditArchives.headHash }).from(auditArchives).orderBy(desc(auditArchives.lastId)).limit(1);
  const [first] = await db.select({ id: min(auditEvents.id) }).from(auditEvents);
  if (first?.id == null) return { archived: false, reason: "no events" };
  const firstId = first.id;
  const [firstNew] = await db.select({ id: min(auditEvents.id) }).from(auditEvents).where(gte(auditEvents.at, cut));
  const lastId = firstNew?.id == null ? (await db.select({ id: max(auditEvents.id) }).from(auditEvents))[0]!.id! : firstNew.id - 1;
  if (lastId < firstId) return { archived: false, reason: "no events before the cutoff" };

  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(path.resolve(dir), `audit-${String(firstId).padStart(10, "0")}-${String(lastId).padStart(10, "0")}.jsonl`);
  if (fs.existsSync(file)) throw new Error(`archiveBefore: ${file} already exists; refusing to overwrite an archive.`);
  const tmp = `${file}.partial`;

  // Stream the range a page at a time: memory stays bounded whatever the size of the archive.
  const fd = fs.openSync(tmp, "wx", 0o600);
  let rows = 0;
  let headHash = "";
  try {
    let cursor = firstId - 1;
    for (;;) {
      const batch = await db
        .select(ROW_FIELDS)
        .from(auditEvents)
        .where(and(gt(auditEvents.id, cursor), lte(auditEvents.id, lastId)))
        .orderBy(asc(auditEvents.id))
        .limit(PAGE);
      if (batch.length === 0) break;
      fs.writeSync(fd, batch.map((r) => JSON.stringify(r)).join("\n") + "\n");
      rows += batch.length;
      cursor = batch[batch.length - 1]!.id;
      headHash = batch[batch.length - 1]!.hash;
    }
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }

  const check: VerifyResult = await verifyArchiveFile(tmp, {
    startHash: prev?.hash ?? GENESIS_HASH,
    startId: prev?.id ?? 0,
    keys: loadAuditKeys(db),
  });
  if (!check.ok) {
    fs.rmSync(tmp, { force: true });
    throw new Error(`archiveBefore: the chain is broken at row ${check.brokenAt} (${check.reason}); nothing was archived.`);
  }
  fs.renameSync(tmp, file);

  const range = between(auditEvents.id, firstId, lastId);
  try {
    // Under the chain's lock (BEGIN IMMEDIATE on SQLite, the advisory lock on PostgreSQL), so no append reads the
    // head while the rows are leaving and the archive's head is being recorded.
    await inTransaction(db, async (tx) => {
      await lockForTransaction(tx, "audit-chain");
      const [still] = await tx.select({ n: count() }).from(auditEvents).where(range);
      if (still!.n !== rows) throw new Error(`archiveBefore: ${rows} rows archived but ${still!.n} are in the range now; nothing removed.`);
      await tx.insert(auditArchives).values({ firstId, lastId, count: rows, headHash, file, archivedAt: Date.now() });
      await tx.delete(auditEvents).where(range);
    });
  } catch (err) {
    fs.rmSync(file, { force: true });
    throw err;
  }
  return { archived: true, file, firstId, lastId, count: rows, headHash };
}

/** OMNIFORGE_AUDIT_RETENTION_DAYS: keep this many days of events in the table; unset or 0 keeps everything. */
export function retentionDaysFromEnv(source?: EnvSource): number | null {
  const days = setting("OMNIFORGE_AUDIT_RETENTION_DAYS", source);
  if (days === 0) return null;
  return days;
}

/**
 * Applies the retention setting now and then once a day (the timer does not keep the process alive).
 * Returns a function that stops it. Failures are reported on stderr and retried at the next run. Several servers
 * on one database each start it; a database lock (db/locks.ts) lets one of them run it at a time.
 */
export function startRetention(db: Db, opts: { days: number; dir: string; everyMs?: number; now?: () => number }): () => void {
  const now = opts.now ?? Date.now;
  let running = false;
  const runOnce = async () => {
    if (running) return;
    running = true;
    try {
      const alone = await runAlone(db, "audit-retention", () => archiveBefore(db, now() - opts.days * 86_400_000, opts.dir));
      const r = alone.ran ? alone.value : null;
      if (r?.archived) process.stderr.write(`audit: archived ${r.count} events (ids ${r.firstId}-${r.lastId}) to ${r.file}\n`);
    } catch (err) {
      process.stderr.write(`audit: retention failed: ${(err as Error).message}\n`);
    } finally {
      running = false;
    }
  };
  void runOnce();
  const timer = setInterval(() => void runOnce(), opts.everyMs ?? 86_400_000);
  timer.unref?.();
  return () => clearInterval(timer);
}
