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
import { checkArchiveFile, checkArchives, stepAsync, stepSync } from "./archive-check";
import { ChainChecker, type ChainFailure, type CheckerKeys } from "./chain-check";
import { checkCheckpoints, type CheckpointReport } from "./checkpoint-check";
import { GENESIS_HASH, type StoredRow } from "./hash";

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
export function chainStart(db: Db): { id: number; hash: string; archivedCount: number } {
  const a = archivedHeadQuery(db).get();
  if (!a) return { id: 0, hash: GENESIS_HASH, archivedCount: 0 };
  const archived = db.select({ n: sum(auditArchives.count).mapWith(Number) }).from(auditArchives).get();
  return { ...a, archivedCount: archived?.n ?? 0 };
}

/** canonical() of a raw ROW_FIELDS value array, without building an object. */
function rawCanonical(r: unknown[]): string {
  const base = r.slice(0, 15);
  if (r[22] !== null && r[22] !== undefined && r[22] !== "") return JSON.stringify(base.concat(r.slice(18, 23)));
  return JSON.stringify(r[18] !== null || r[19] !== null || r[20] !== null || r[21] !== null ? base.concat(r.slice(18, 22)) : base);
}

/** The walk itself, a page per step, so the sync and the async entry points share it. */
function* walk(db: Db): Generator<void, ChainVerifyResult> {
  flushAudit(db);
  const start = chainStart(db);
  const keys = loadAuditKeys(db);
  const info = (checker: ChainChecker | null): ChainInfo => ({ keyedFrom: keys.keyedFrom, unkeyed: checker?.unkeyed ?? 0, checkpoints: checkCheckpoints(db, keys) });
  const page = db
    .select(ROW_FIELDS)
    .from(auditEvents)
    .where(gt(auditEvents.id, sql.placeholder("cursor")))
    .orderBy(asc(auditEvents.id))
    .limit(PAGE)
    .prepare();
  // The table's chain starts where the newest archive ends: that start is only as good as the archives.
  const archives = yield* checkArchives(db, keys);
  const broken = archives.find((a) => !a.result.ok)?.result;
  if (broken && !broken.ok) return { ...broken, count: 0, ...info(null) };
  const checker = new ChainChecker(start, keys);
  // Rows still in the table at or below the archived head were not removed by retention: they do not belong.
  const stale = db
    .select({ id: auditEvents.id, hash: auditEvents.hash })
    .from(auditEvents)
    .where(lte(auditEvents.id, start.id))
    .orderBy(asc(auditEvents.id))
    .limit(1)
    .get();
  if (stale) {
    return { ok: false, count: 0, brokenAt: stale.id, reason: "inserted row", expected: start.hash, found: stale.hash, message: `Row ${stale.id} is inside the archived range (up to ${start.id}).`, ...info(null) };
  }
  // Raw value arrays: ROW_FIELDS lists the chained fields first, in canonical() order, then prev_hash,
  // hash and chain, then the four source fields, which canonical() appends when one is set.
  let cursor = start.id;
  for (;;) {
    const rows = page.values({ cursor }) as unknown[][];
    if (rows.length === 0) break;
    for (const r of rows) {
      const failure = checker.push({ id: r[0] as number, prevHash: r[15] as string, hash: r[16] as string, chain: r[17] as number, canonical: rawCanonical(r) });
      if (failure) return { ...failure, ...info(checker) };
    }
    cursor = rows[rows.length - 1]![0] as number;
    yield;
  }
  const failure = checker.end();
  if (failure) return { ...failure, ...info(checker) };
  const more = info(checker);
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

/** Verifies every row in audit_events, from the newest archive's head (or genesis) to the last row. */
export function verifyChain(db: Db): ChainVerifyResult {
  return stepSync(walk(db));
}

/**
 * verifyChain for servers: yields to the event loop between pages, so checking a million rows (seconds)
 * does not stall every other request. Rows appended meanwhile are checked too if the walk reaches them.
 */
export function verifyChainAsync(db: Db): Promise<ChainVerifyResult> {
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
