// Verification walks the chain in id order, a page at a time (memory stays bounded at any size), and
// recomputes every hash. The first break is named with a reason a person can act on:
//   edited       the row's content no longer matches its own hash
//   missing row  the row links to a predecessor that is not there (ids skip: rows were removed)
//   inserted row a row sits where the chain does not expect it (its neighbours link past it)
//   hash mismatch the link is broken and none of the above explains it (e.g. a row re-hashed after an edit)
// Limits (documented, inherent to an unkeyed chain): removing the newest rows, or appending rows with
// correctly computed hashes, cannot be seen from the table alone; the stdout copy kept by a log shipper and
// the archive heads are the external anchors for that.
import fs from "node:fs";
import readline from "node:readline";
import type { Db } from "../../../db/client";
import { chainHash, GENESIS_HASH, hashCanonical, type ChainedFields } from "./hash";
import { flushAudit } from "./sink";

export type BreakReason = "edited" | "missing row" | "inserted row" | "hash mismatch";

export type VerifyResult =
  | { ok: true; count: number; head: string; archivedCount: number; startId: number }
  | { ok: false; count: number; brokenAt: number; reason: BreakReason; expected: string; found: string; message: string };

export interface StoredRow extends ChainedFields {
  prevHash: string;
  hash: string;
}

export const ROW_COLUMNS = `id, at, type, actor_id AS actorId, actor_email AS actorEmail, session_id AS sessionId, skill, layer,
  digest, tool, model, mode, outcome, duration_ms AS durationMs, details, prev_hash AS prevHash, hash`;

const PAGE = 2_000;

/** Checks rows one after another; `next` lets it look one row ahead when a link breaks. */
class ChainChecker {
  count = 0;
  private lastId: number;
  private lastHash: string;
  private lastPrevHash: string | null = null;

  constructor(start: { id: number; hash: string }) {
    this.lastId = start.id;
    this.lastHash = start.hash;
  }

  get head() {
    return this.lastHash;
  }

  /** Returns a failure, or null when the row continues the chain. */
  check(
    row: Pick<StoredRow, "id" | "prevHash" | "hash">,
    next: () => { prevHash: string } | undefined,
    recomputed: string = chainHash(row.prevHash, row as StoredRow),
  ): Exclude<VerifyResult, { ok: true }> | null {
    const fail = (brokenAt: number, reason: BreakReason, expected: string, found: string, message: string) => ({
      ok: false as const,
      count: this.count,
      brokenAt,
      reason,
      expected,
      found,
      message,
    });
    if (row.prevHash === this.lastHash) {
      if (recomputed !== row.hash) {
        return fail(row.id, "edited", recomputed, row.hash, `Row ${row.id} was changed after it was written: its content no longer matches its hash.`);
      }
    } else if (this.lastPrevHash !== null && row.prevHash === this.lastPrevHash) {
      return fail(this.lastId, "inserted row", row.prevHash, this.lastHash, `Row ${this.lastId} was inserted: row ${row.id} links to the row before it.`);
    } else if (next()?.prevHash === this.lastHash) {
      return fail(row.id, "inserted row", this.lastHash, row.prevHash, `Row ${row.id} was inserted: the row after it links to row ${this.lastId}.`);
    } else if (row.id > this.lastId + 1) {
      const gap = row.id - this.lastId - 1;
      return fail(row.id, "missing row", this.lastHash, row.prevHash, `${gap === 1 ? `Row ${this.lastId + 1} is` : `Rows ${this.lastId + 1}-${row.id - 1} are`} missing before row ${row.id}.`);
    } else if (recomputed !== row.hash) {
      return fail(row.id, "edited", recomputed, row.hash, `Row ${row.id} was changed after it was written (including its link to row ${this.lastId}).`);
    } else {
      return fail(row.id, "hash mismatch", this.lastHash, row.prevHash, `Row ${row.id} does not link to row ${this.lastId}: one of them was altered and re-hashed.`);
    }
    this.count += 1;
    this.lastId = row.id;
    this.lastPrevHash = row.prevHash;
    this.lastHash = row.hash;
    return null;
  }
}

/** Where the table's part of the chain starts: after the newest archive, or at genesis. */
export function chainStart(db: Db): { id: number; hash: string; archivedCount: number } {
  const a = db.$client
    .prepare(`SELECT last_id AS id, head_hash AS hash, (SELECT COALESCE(SUM(count), 0) FROM audit_archives) AS archivedCount
              FROM audit_archives ORDER BY last_id DESC LIMIT 1`)
    .get() as { id: number; hash: string; archivedCount: number } | undefined;
  return a ?? { id: 0, hash: GENESIS_HASH, archivedCount: 0 };
}

/** The walk itself, a page per step, so the sync and the async entry points share it. */
function* walk(db: Db): Generator<void, VerifyResult> {
  flushAudit(db);
  const start = chainStart(db);
  const page = db.$client.prepare(`SELECT ${ROW_COLUMNS} FROM audit_events WHERE id > ? ORDER BY id LIMIT ${PAGE}`);
  const after = db.$client.prepare(`SELECT prev_hash AS prevHash FROM audit_events WHERE id > ? ORDER BY id LIMIT 1`);
  const checker = new ChainChecker(start);
  // Rows still in the table at or below the archived head were not removed by retention: they do not belong.
  const stale = db.$client.prepare(`SELECT id, hash FROM audit_events WHERE id <= ? ORDER BY id LIMIT 1`).get(start.id) as
    | { id: number; hash: string }
    | undefined;
  if (stale) {
    return { ok: false, count: 0, brokenAt: stale.id, reason: "inserted row", expected: start.hash, found: stale.hash, message: `Row ${stale.id} is inside the archived range (up to ${start.id}).` };
  }
  // Raw column arrays: ROW_COLUMNS lists the chained fields first, in canonical() order, then prev_hash and
  // hash, so the first 15 values serialise exactly as canonical() would (without building objects).
  page.raw(true);
  let cursor = start.id;
  for (;;) {
    const rows = page.all(cursor) as unknown[][];
    if (rows.length === 0) break;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      const row = { id: r[0] as number, prevHash: r[15] as string, hash: r[16] as string };
      const next = () => (i + 1 < rows.length ? { prevHash: rows[i + 1]![15] as string } : (after.get(row.id) as { prevHash: string } | undefined));
      const failure = checker.check(row, next, hashCanonical(row.prevHash, JSON.stringify(r.slice(0, 15))));
      if (failure) return failure;
    }
    cursor = rows[rows.length - 1]![0] as number;
    yield;
  }
  return { ok: true, count: checker.count, head: checker.head, archivedCount: start.archivedCount, startId: start.id + 1 };
}

/** Verifies every row in audit_events, from the newest archive's head (or genesis) to the last row. */
export function verifyChain(db: Db): VerifyResult {
  const it = walk(db);
  for (;;) {
    const step = it.next();
    if (step.done) return step.value;
  }
}

/**
 * verifyChain for servers: yields to the event loop between pages, so checking a million rows (seconds)
 * does not stall every other request. Rows appended meanwhile are checked too if the walk reaches them.
 */
export async function verifyChainAsync(db: Db): Promise<VerifyResult> {
  const it = walk(db);
  for (;;) {
    const step = it.next();
    if (step.done) return step.value;
    await new Promise((r) => setImmediate(r));
  }
}

/**
 * Verifies an archive file's own chain (one stored row per JSONL line), streamed. `startHash` is the head the
 * first row must link to (the previous archive's head, or genesis); `expectedHead` the head recorded in
 * audit_archives.
 */
export async function verifyArchiveFile(
  file: string,
  opts: { startHash?: string; startId?: number; expectedHead?: string } = {},
): Promise<VerifyResult> {
  const lines = readline.createInterface({ input: fs.createReadStream(file, "utf8"), crlfDelay: Infinity });
  let checker: ChainChecker | null = null;
  let pending: StoredRow | null = null;
  let firstId = 0;
  const step = (row: StoredRow, next: StoredRow | null) => {
    checker ??= new ChainChecker({ id: opts.startId ?? row.id - 1, hash: opts.startHash ?? row.prevHash });
    if (!firstId) firstId = row.id;
    return checker.check(row, () => next ?? undefined);
  };
  let lineNo = 0;
  for await (const line of lines) {
    lineNo += 1;
    if (!line.trim()) continue;
    let row: StoredRow;
    try {
      row = JSON.parse(line) as StoredRow;
    } catch {
      return { ok: false, count: checker ? (checker as ChainChecker).count : 0, brokenAt: -lineNo, reason: "edited", expected: "a JSON row", found: line.slice(0, 80), message: `Line ${lineNo} of the archive is not valid JSON.` };
    }
    if (pending) {
      const failure = step(pending, row);
      if (failure) return failure;
    }
    pending = row;
  }
  if (pending) {
    const failure = step(pending, null);
    if (failure) return failure;
  }
  const c = checker as ChainChecker | null;
  if (!c) return { ok: true, count: 0, head: opts.startHash ?? GENESIS_HASH, archivedCount: 0, startId: 0 };
  if (opts.expectedHead && c.head !== opts.expectedHead) {
    return { ok: false, count: c.count, brokenAt: -1, reason: "missing row", expected: opts.expectedHead, found: c.head, message: `The archive ends at a different head than audit_archives recorded: rows are missing at its end.` };
  }
  return { ok: true, count: c.count, head: c.head, archivedCount: 0, startId: firstId };
}

/** Verifies every archive file recorded in audit_archives, each linked to the one before it. */
export async function verifyArchives(db: Db): Promise<{ file: string; result: VerifyResult }[]> {
  const archives = db.$client
    .prepare(`SELECT first_id AS firstId, last_id AS lastId, head_hash AS headHash, file FROM audit_archives ORDER BY last_id`)
    .all() as { firstId: number; lastId: number; headHash: string; file: string }[];
  const out: { file: string; result: VerifyResult }[] = [];
  let prev = { id: 0, hash: GENESIS_HASH };
  for (const a of archives) {
    const result = fs.existsSync(a.file)
      ? await verifyArchiveFile(a.file, { startHash: prev.hash, startId: prev.id, expectedHead: a.headHash })
      : ({ ok: false, count: 0, brokenAt: a.firstId, reason: "missing row", expected: a.headHash, found: "", message: `Archive file ${a.file} is missing.` } as const);
    out.push({ file: a.file, result });
    prev = { id: a.lastId, hash: a.headHash };
  }
  return out;
}
