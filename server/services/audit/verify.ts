// Verification walks the chain in id order, a page at a time (memory stays bounded at any size), and
// checks every row's keyed hash (chain-check.ts names the first problem: edited, replaced, deleted,
// inserted, appended or rewritten without the key). Rows written before the chain was keyed are checked
// with their plain sha256 and counted as `unkeyed` (the first keyed row, which links to them, anchors them).
// Then the signed checkpoints are compared with the rows they name (checkpoint-check.ts): that shows a
// rewrite done with a stolen HMAC key, and rows removed at the end, which no chain can show alone.
import path from "node:path";
import { asc, gt, lte, sql, sum } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { auditArchives, auditEvents } from "../../../db/schema/audit";
import { checkArchiveFile, checkArchives, stepAll, stepAsync } from "./archive-check";
import { ChainChecker, type ChainFailure, type CheckerKeys } from "./chain-check";
import { checkCheckpoints, type CheckpointReport } from "./checkpoint-check";
import { exitStatusOf } from "./exit-status";
import { canonical, GENESIS_HASH, type StoredRow } from "./hash";

export type { StoredRow };
import { loadAuditKeys, loadAuditKeysAt } from "./keys";
import { archivedHeadQuery, ROW_FIELDS } from "./rows";
import { flushAudit } from "./sink";

export type { CheckpointReport } from "./checkpoint-check";

export type VerifyResult = { ok: true; count: number; head: string; archivedCount: number; startId: number } | ChainFailure;

/** What verification of the table says besides the chain: how it is keyed, and what the checkpoints say. */
export interface ChainInfo {
  /** The first row written with the key (null: no keyed row yet). */
  keyedFrom: number | null;
  /** Rows checked with the plain sha256 of before the key existed. */
  unkeyed: number;
  checkpoints: CheckpointReport;
}

export type ChainVerifyResult = VerifyResult & ChainInfo;


const PAGE = 2_000;

/** Where the table's part of the chain starts: after the newest archive, or at genesis. */
export async function chainStart(db: Db): Promise<{ id: number; hash: string; archivedCount: number }> {
  const a = (await archivedHeadQuery(db).execute())[0];
  if (!a) return { id: 0, hash: GENESIS_HASH, archivedCount: 0 };
  const [archived] = await db.select({ n: sum(auditArchives.count).mapWith(Number) }).from(auditArchives);
  return { ...a, archivedCount: archived?.n ?? 0 };
}

/** The walk itself, a page per step, so the sync and the async entry points share it. */
async function* walk(db: Db): AsyncGenerator<void, ChainVerifyResult> {
  await flushAudit(db);
  const start = await chainStart(db);
  const keys = loadAuditKeys(db);
  const info = async (checker: ChainChecker | null): Promise<ChainInfo> => ({ keyedFrom: keys.keyedFrom, unkeyed: checker?.unkeyed ?? 0, checkpoints: await checkCheckpoints(db, keys) });
  const page = db
    .select({ ...ROW_FIELDS, exitStatus: auditEvents.exitStatus })
    .from(auditEvents)
    .where(gt(auditEvents.id, sql.placeholder("cursor")))
    .orderBy(asc(auditEvents.id))
    .limit(PAGE)
    .prepare();
  // The table's chain starts where the newest archive ends: that start is only as good as the archives.
  const archives = yield* checkArchives(db, keys);
  const broken = archives.find((a) => !a.result.ok)?.result;
  if (broken && !broken.ok) return { ...broken, count: 0, ...(await info(null)) };
  const checker = new ChainChecker(start, keys);
  // Rows still in the table at or below the archived head were not removed by retention: they do not belong.
  const stale = (await db
    .select({ id: auditEvents.id, hash: auditEvents.hash })
    .from(auditEvents)
    .where(lte(auditEvents.id, start.id))
    .orderBy(asc(auditEvents.id))
    .limit(1))[0];
  if (stale) {
    return { ok: false, count: 0, brokenAt: stale.id, reason: "inserted row", expected: start.hash, found: stale.hash, message: `Row ${stale.id} is inside the archived range (up to ${start.id}).`, ...(await info(null)) };
  }
  let cursor = start.id;
  for (;;) {
    const rows = await page.execute({ cursor });
    if (rows.length === 0) break;
    for (const r of rows) {
      const failure = checker.push({ id: r.id, prevHash: r.prevHash, hash: r.hash, chain: r.chain, canonical: canonical(r) });
      if (failure) return { ...failure, ...(await info(checker)) };
      const altered = alteredStatus(r);
      if (altered) return { ...altered, count: checker.count, ...(await info(checker)) };
    }
    cursor = rows[rows.length - 1]!.id;
    yield;
  }
  const failure = checker.end();
  if (failure) return { ...failure, ...(await info(checker)) };
  const more = await info(checker);
  const cp = more.checkpoints;
  // The chain holds; the checkpoints may still say it was rewritten with the key, or cut at the end.
  if (cp.problems.length) {
    return { ok: false, count: checker.count, brokenAt: 0, reason: "checkpoint file altered", expected: "signed checkpoints", found: cp.problems[0]!, message: cp.message, ...more };
  }
  if (cp.mismatch) {
    const m = cp.mismatch;
    return { ok: false, count: checker.count, brokenAt: m.rowId, reason: "checkpoint mismatch", expected: m.expected, found: m.found ?? "", message: cp.message, ...more };
  }
  return { ok: true, count: checker.count, head: checker.head, archivedCount: start.archivedCount, startId: start.id + 1, ...more };
}

/**
 * A script run's exit status is stored beside the hashed fields it is computed from (exit-status.ts), outside the
 * hash: an edit of it would change the dashboard's counts without breaking the chain, so it is computed again here.
 * A run without one is let pass: a server of the previous version, still running during an upgrade, writes none.
 */
function alteredStatus(r: StoredRow & { exitStatus: string | null }): Omit<ChainFailure, "count"> | null {
  if (r.exitStatus === null) return null;
  const expected = exitStatusOf(r) ?? "none";
  if (r.exitStatus === expected) return null;
  const message = `Row ${r.id}'s stored exit status "${r.exitStatus}" is not what the row says ("${expected}"): the dashboard's count of script runs was edited.`;
  return { ok: false, brokenAt: r.id, reason: "status altered", expected, found: r.exitStatus, message };
}

/** Verifies every row in audit_events, from the newest archive's head (or genesis) to the last row. */
export async function verifyChain(db: Db): Promise<ChainVerifyResult> {
  return stepAll(walk(db));
}

/**
 * verifyChain for servers: yields to the event loop between pages, so checking a million rows (seconds)
 * does not stall every other request. Rows appended meanwhile are checked too if the walk reaches them.
 */
export async function verifyChainAsync(db: Db): Promise<ChainVerifyResult> {
  return stepAsync(walk(db));
}

/**
 * Verifies an archive file's own chain (one stored row per JSONL line). `startHash` is the head the first row
 * must link to (the previous archive's head, or genesis); `expectedHead` the head recorded in audit_archives.
 * `keys` default to those of the data home the archive folder sits in (<home>/audit-archive).
 */
export async function verifyArchiveFile(
  file: string,
  opts: { startHash?: string; startId?: number; expectedHead?: string; keys?: CheckerKeys } = {},
): Promise<VerifyResult> {
  const keys = opts.keys ?? loadAuditKeysAt(path.dirname(path.dirname(path.resolve(/*turbopackIgnore: true*/ file))));
  const r = await stepAsync(checkArchiveFile(file, { ...opts, keys }));
  return r.ok ? { ...r, archivedCount: 0 } : r;
}

/** Verifies every archive recorded in audit_archives, each linked to the one before it. */
export async function verifyArchives(db: Db): Promise<{ file: string; result: VerifyResult }[]> {
  const checks = await stepAsync(checkArchives(db, loadAuditKeys(db)));
  return checks.map((c) => ({ file: c.file, result: c.result.ok ? { ...c.result, archivedCount: 0 } : c.result }));
}
