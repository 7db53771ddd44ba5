// The chain checker: rows are pushed one after another (from the table or an archive file) and the first
// problem is named with a reason a person can act on. It knows the HMAC key, so it can tell an authentic
// row (its keyed hash verifies) from a forged one, and uses that to say what happened, not just where:
//   edited                a row's content no longer matches its hash, which the next (authentic) row links to
//   replaced              a row's hash was forged: its neighbours are authentic and link around it
//   missing row           an authentic row links past a gap in the ids (rows were deleted)
//   inserted row          the row after it links to the row before it (renumbered or made-up ids)
//   appended without key  rows from N to the end link to each other, but none carries a valid keyed hash
//   rewritten without key the same from the first row: the whole chain was re-hashed without the key
//   hash mismatch         a break none of the above explains
//   archive missing       a recorded archive's file is gone, not a file, or its range leaves a gap (archive-check.ts)
//   status altered        a script run's stored exit status, which is not hashed, differs from its details (verify.ts)
// A problem inside a run of forged rows is reported once the run ends, so the checker may read ahead.
import { AUDIT_CHAIN_HMAC, AUDIT_CHAIN_UNKEYED } from "../../domain/audit-chain";
import { hashCanonical, macCanonical } from "./hash";

export type BreakReason =
  | "edited"
  | "replaced"
  | "missing row"
  | "inserted row"
  | "appended without key"
  | "rewritten without key"
  | "hash mismatch"
  | "key missing"
  | "checkpoint mismatch"
  | "checkpoint file altered"
  | "archive missing"
  | "status altered";

export interface ChainFailure {
  ok: false;
  count: number;
  brokenAt: number;
  reason: BreakReason;
  expected: string;
  found: string;
  message: string;
}

export interface CheckRow {
  id: number;
  prevHash: string;
  hash: string;
  /** AUDIT_CHAIN_UNKEYED or AUDIT_CHAIN_HMAC (anything else never verifies). */
  chain: number;
  /** canonical() of the row's chained fields. */
  canonical: string;
}

export interface CheckerKeys {
  hmacKey: Buffer | null;
  /** Rows from this id on must be keyed: an unkeyed row there is a downgrade, i.e. forged. */
  keyedFrom: number | null;
}

interface Run {
  start: CheckRow;
  expected: string;
  endId: number;
  endHash: string;
  beforeId: number;
  beforeHash: string;
}

const rowsText = (a: number, b: number) => (a === b ? `Row ${a}` : `Rows ${a}–${b}`);

export class ChainChecker {
  count = 0;
  /** Rows that verified with the plain sha256 of the rows written before the chain was keyed. */
  unkeyed = 0;
  private lastId: number;
  private lastHash: string;
  private lastPrevHash: string | null = null;
  private firstId: number | null = null;
  private seenKeyed = false;
  private run: Run | null = null;
  private held: CheckRow | null = null;

  constructor(
    start: { id: number; hash: string },
    private readonly keys: CheckerKeys,
  ) {
    this.lastId = start.id;
    this.lastHash = start.hash;
  }

  get head() {
    return this.lastHash;
  }

  /** What the row's hash should be, by its own content and link. */
  private recompute(row: CheckRow): string {
    if (row.chain === AUDIT_CHAIN_HMAC && this.keys.hmacKey) return macCanonical(this.keys.hmacKey, row.prevHash, row.canonical);
    return hashCanonical(row.prevHash, row.canonical);
  }

  /** Whether the row was written by someone holding the key (or, before the key existed, by the writer at all). */
  private authentic(row: CheckRow): boolean {
    if (row.chain === AUDIT_CHAIN_HMAC) return !!this.keys.hmacKey && this.recompute(row) === row.hash;
    if (row.chain !== AUDIT_CHAIN_UNKEYED) return false;
    // An unkeyed row where the chain is already keyed was re-hashed by someone without the key.
    if (this.seenKeyed || (this.keys.keyedFrom !== null && row.id >= this.keys.keyedFrom)) return false;
    return this.recompute(row) === row.hash;
  }

  private fail(brokenAt: number, reason: BreakReason, expected: string, found: string, message: string): ChainFailure {
    return { ok: false, count: this.count, brokenAt, reason, expected, found, message };
  }

  private accept(row: CheckRow): null {
    this.count += 1;
    if (row.chain === AUDIT_CHAIN_HMAC) this.seenKeyed = true;
    else this.unkeyed += 1;
    this.lastId = row.id;
    this.lastPrevHash = row.prevHash;
    this.lastHash = row.hash;
    return null;
  }

  /** Returns a failure, or null while the chain holds so far. Call end() after the last row. */
  push(row: CheckRow): ChainFailure | null {
    this.firstId ??= row.id;
    if (this.run) {
      const r = this.run;
      if (row.id === r.endId + 1 && row.prevHash === r.endHash && !this.authentic(row)) {
        r.endId = row.id;
        r.endHash = row.hash;
        return null;
      }
      return this.endRun(row);
    }
    if (this.held) return this.endHeld(row);
    if (row.chain === AUDIT_CHAIN_HMAC && !this.keys.hmacKey) {
      return this.fail(row.id, "key missing", "the HMAC key", "(none)", `Row ${row.id} is keyed, but the audit key is missing from the data home's secrets folder: keyed rows cannot be verified.`);
    }
    const ok = this.authentic(row);
    if (row.prevHash === this.lastHash && row.id === this.lastId + 1) {
      if (ok) return this.accept(row);
      this.run = { start: row, expected: this.recompute(row), endId: row.id, endHash: row.hash, beforeId: this.lastId, beforeHash: this.lastHash };
      return null;
    }
    if (this.lastPrevHash !== null && row.prevHash === this.lastPrevHash) {
      return this.fail(this.lastId, "inserted row", row.prevHash, this.lastHash, `A row was inserted after row ${this.lastId - 1}: row ${row.id} links to row ${this.lastId - 1}, past row ${this.lastId}.`);
    }
    if (ok && row.id > this.lastId + 1) return this.deleted(row);
    if (ok && row.id === this.lastId + 1) {
      return this.fail(this.lastId, "replaced", row.prevHash, this.lastHash, `Row ${this.lastId} was replaced: row ${row.id} is intact and links to a different row ${this.lastId} than the one stored.`);
    }
    if (ok) return this.fail(row.id, "hash mismatch", this.lastHash, row.prevHash, `Row ${row.id} does not follow row ${this.lastId}.`);
    this.held = row; // decided by the row after it
    return null;
  }

  end(): ChainFailure | null {
    if (this.run) return this.endRun(null);
    if (this.held) return this.endHeld(null);
    return null;
  }

  private deleted(row: CheckRow): ChainFailure {
    const a = this.lastId + 1;
    const b = row.id - 1;
    const what = a === b ? `Row ${a} was deleted` : `Rows ${a}–${b} were deleted`;
    return this.fail(row.id, "missing row", this.lastHash, row.prevHash, `${what}: row ${row.id} is intact and links past ${a === b ? "it" : "them"} (${a === b ? `Row ${a} is` : `Rows ${a}-${b} are`} missing before row ${row.id}).`);
  }

  /** A row that neither links nor verifies, judged by the row after it. */
  private endHeld(next: CheckRow | null): ChainFailure {
    const x = this.held!;
    this.held = null;
    if (next && next.prevHash === this.lastHash) {
      return this.fail(x.id, "inserted row", this.lastHash, x.prevHash, `A row was inserted after row ${this.lastId}: row ${x.id} does not belong, and the row after it links to row ${this.lastId}.`);
    }
    if (x.id > this.lastId + 1) {
      const d = this.deleted(x);
      return { ...d, message: `${d.message} Row ${x.id} does not match its own hash either.` };
    }
    return this.fail(x.id, "edited", this.recompute(x), x.hash, `Row ${x.id} was changed after it was written (including its link to row ${this.lastId}).`);
  }

  /** A run of rows that link but do not verify, judged by what follows it. */
  private endRun(next: CheckRow | null): ChainFailure {
    const r = this.run!;
    this.run = null;
    const s = r.start.id;
    const e = r.endId;
    const fail = (reason: BreakReason, message: string) => this.fail(s, reason, r.expected, r.start.hash, message);
    if (next && next.prevHash === r.beforeHash) {
      return fail("inserted row", `A row was inserted after row ${r.beforeId}: ${rowsText(s, e).toLowerCase()} ${s === e ? "does" : "do"} not belong, and the row after ${s === e ? "it" : "them"} links to row ${r.beforeId}.`);
    }
    if (!next) {
      if (s === this.firstId && s !== e) {
        return fail("rewritten without key", `The chain was rewritten without the key: rows ${s}–${e} link to each other, but none carries a valid keyed hash (it fails at the first row, ${s}).`);
      }
      if (s === e) {
        return fail("edited", `Row ${s}, the newest, does not match its keyed hash: it was edited, or appended without the key.`);
      }
      return fail("appended without key", `Rows after ${s - 1} were appended without the key: rows ${s}–${e} link to each other, but none carries a valid keyed hash.`);
    }
    const nextOk = this.authentic(next);
    if (next.id === e + 1 && next.prevHash === r.endHash) {
      // The row after the run is intact and links to the stored hash: that hash is the original, the content is not.
      return fail("edited", s === e ? `Row ${s} was changed after it was written: its content no longer matches its hash.` : `${rowsText(s, e)} were changed after they were written: their content no longer matches their hashes.`);
    }
    if (nextOk && next.id === e + 1) {
      // Expected: the hash the intact next row links to, i.e. the original row's.
      return this.fail(
        s,
        "replaced",
        next.prevHash,
        r.endHash,
        s === e
          ? `Row ${s} was replaced: its hash was forged without the key, while row ${r.beforeId} and row ${next.id} still link around the original.`
          : `Rows ${s}–${e} were replaced (re-hashed without the key): row ${next.id} is intact and still links to the original row ${e}.`,
      );
    }
    if (nextOk) {
      return fail("missing row", `${rowsText(s, e)} ${s === e ? "does" : "do"} not match ${s === e ? "its" : "their"} keyed hash, and rows ${e + 1}–${next.id - 1} were deleted after ${s === e ? "it" : "them"}.`);
    }
    return fail("hash mismatch", `${rowsText(s, e)} ${s === e ? "does" : "do"} not match ${s === e ? "its" : "their"} keyed hash, and the chain stays broken at row ${next.id}.`);
  }
}
