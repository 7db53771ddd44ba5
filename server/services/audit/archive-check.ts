// Archives in verification: retention moves the oldest rows into JSONL files and records each in
// audit_archives, and the table's chain then starts at the newest archive's head. So a record is as good as the
// rows it stands for: deleting rows 1-100 and inserting a record naming a file that never existed made the
// table verify (issue 35 item 7). Every recorded archive is checked here: the ranges follow each other from row 1,
// each file is present (a regular file in the data home, not a link), its own chain holds from the head before
// it, and it ends at the head recorded for it, which is where the next archive, or the table, starts.
// Files are read synchronously a chunk at a time, yielding between chunks, so verifyChain stays synchronous
// and verifyChainAsync gives the event loop a turn per chunk.
import fs from "node:fs";
import path from "node:path";
import { asc } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { auditArchives } from "../../../db/schema/audit";
import { AUDIT_CHAIN_UNKEYED } from "../../domain/audit-chain";
import { ChainChecker, type ChainFailure, type CheckerKeys } from "./chain-check";
import { canonical, GENESIS_HASH, type StoredRow } from "./hash";
import { dataHomeOf } from "./keys";
import { yieldToEventLoop } from "../../runtime/turns";

const CHUNK = 1024 * 1024;

export type ArchiveFileResult = { ok: true; count: number; head: string; startId: number } | ChainFailure;

/** Reads `file` in chunks and hands each complete line to `onLine`; stops when it returns false. */
function* eachLine(file: string, onLine: (line: string, lineNo: number) => boolean): Generator<void, void> {
  const fd = fs.openSync(file, "r");
  try {
    const buf = Buffer.alloc(CHUNK);
    let rest = "";
    let lineNo = 0;
    const decoder = new TextDecoder("utf-8");
    for (;;) {
      const n = fs.readSync(fd, buf, 0, CHUNK, null);
      const text = rest + (n ? decoder.decode(buf.subarray(0, n), { stream: true }) : decoder.decode());
      const parts = text.split("\n");
      rest = n ? parts.pop()! : "";
      for (const line of parts) if (!onLine(line.replace(/\r$/, ""), ++lineNo)) return;
      if (!n) return;
      yield;
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** One archive file's own chain, from `startHash`/`startId` (default: its first row's link), ending at `expectedHead` when given. */
export function* checkArchiveFile(file: string, opts: { startHash?: string; startId?: number; expectedHead?: string; keys: CheckerKeys }): Generator<void, ArchiveFileResult> {
  let checker: ChainChecker | null = null;
  let firstId = 0;
  let failure: ChainFailure | null = null;
  yield* eachLine(file, (line, lineNo) => {
    if (!line.trim()) return true;
    let row: StoredRow | null = null;
    try {
      row = JSON.parse(line) as StoredRow;
    } catch {
      // said below
    }
    if (!row || typeof row !== "object" || typeof row.id !== "number") {
      failure = { ok: false, count: checker?.count ?? 0, brokenAt: -lineNo, reason: "edited", expected: "a JSON row", found: line.slice(0, 80), message: `Line ${lineNo} of the archive is not a stored row (JSON with an id).` };
      return false;
    }
    checker ??= new ChainChecker({ id: opts.startId ?? row.id - 1, hash: opts.startHash ?? row.prevHash }, opts.keys);
    if (!firstId) firstId = row.id;
    failure = checker.push({ id: row.id, prevHash: row.prevHash, hash: row.hash, chain: row.chain ?? AUDIT_CHAIN_UNKEYED, canonical: canonical(row) });
    return !failure;
  });
  if (failure) return failure;
  const c = checker as ChainChecker | null;
  if (!c) return { ok: true, count: 0, head: opts.startHash ?? GENESIS_HASH, startId: 0 };
  const end = c.end();
  if (end) return end;
  if (opts.expectedHead && c.head !== opts.expectedHead) {
    return { ok: false, count: c.count, brokenAt: -1, reason: "missing row", expected: opts.expectedHead, found: c.head, message: `The archive ends at a different head than audit_archives recorded: rows are missing at its end.` };
  }
  return { ok: true, count: c.count, head: c.head, startId: firstId };
}

/** Why an archive's file cannot be read as one: absent, not a regular file, or outside the data home. */
function unreadable(file: string, home: string | null): string | null {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch {
    return "is missing";
  }
  if (!st.isFile()) return "is not a regular file";
  if (home) {
    const real = fs.realpathSync(file);
    const root = fs.realpathSync(home);
    if (!real.startsWith(root + path.sep)) return "is outside the data home";
  }
  return null;
}

export interface ArchiveCheck {
  file: string;
  firstId: number;
  lastId: number;
  result: ArchiveFileResult;
}

/** Every recorded archive, oldest first, each linked to the head recorded before it. */
export async function* checkArchives(db: Db, keys: CheckerKeys): AsyncGenerator<void, ArchiveCheck[]> {
  const archives = await db
    .select({ firstId: auditArchives.firstId, lastId: auditArchives.lastId, count: auditArchives.count, headHash: auditArchives.headHash, file: auditArchives.file })
    .from(auditArchives)
    .orderBy(asc(auditArchives.lastId));
  const home = dataHomeOf(db);
  const out: ArchiveCheck[] = [];
  let prev = { id: 0, hash: GENESIS_HASH };
  for (const a of archives) {
    const name = path.basename(a.file);
    const missing = (brokenAt: number, message: string): ArchiveFileResult => ({ ok: false, count: 0, brokenAt, reason: "archive missing", expected: a.headHash, found: "", message });
    let result: ArchiveFileResult;
    const why = unreadable(a.file, home);
    if (a.firstId !== prev.id + 1) {
      const gap = a.firstId > prev.id + 1 ? `rows ${prev.id + 1}-${a.firstId - 1} are in no archive and not in the table` : `its rows ${a.firstId}-${prev.id} overlap the archive before it`;
      result = missing(prev.id + 1, `Archive ${name} starts at row ${a.firstId}: ${gap}.`);
    } else if (why) {
      result = missing(a.firstId, `Archive ${name} (rows ${a.firstId}-${a.lastId}) ${why}: the rows it stands for cannot be checked.`);
    } else {
      result = yield* checkArchiveFile(a.file, { startHash: prev.hash, startId: prev.id, expectedHead: a.headHash, keys });
      if (result.ok && (result.count !== a.count || result.startId !== a.firstId)) {
        result = { ok: false, count: result.count, brokenAt: a.firstId, reason: "missing row", expected: `${a.count} rows from ${a.firstId}`, found: `${result.count} rows from ${result.startId}`, message: "" };
      }
      if (!result.ok) result = { ...result, message: `Archive ${name} (rows ${a.firstId}-${a.lastId}): ${result.message || `it holds ${result.found}, audit_archives recorded ${result.expected}.`}` };
    }
    out.push({ file: a.file, firstId: a.firstId, lastId: a.lastId, result });
    // The next archive links to the head recorded for this one, so each is judged on its own.
    prev = { id: a.lastId, hash: a.headHash };
  }
  return out;
}

/** Runs a check generator to its end, giving the event loop a turn between its steps. */
export async function stepAsync<T>(it: Generator<void, T> | AsyncGenerator<void, T>): Promise<T> {
  for (;;) {
    const step = await it.next();
    if (step.done) return step.value;
    await yieldToEventLoop();
  }
}

/** Runs a check generator to its end without giving other work a turn between steps (only its queries wait). */
export async function stepAll<T>(it: Generator<void, T> | AsyncGenerator<void, T>): Promise<T> {
  for (;;) {
    const step = await it.next();
    if (step.done) return step.value;
  }
}
