// Signed checkpoints: every AUDIT_CHECKPOINT_EVERY_ROWS rows (or AUDIT_CHECKPOINT_EVERY_MS when rows were
// written) the writer appends one line to <home>/checkpoints.jsonl, the way trusted logs publish signed
// digests. A line names a row and its hash, and is signed with the Ed25519 key in secrets/:
//   {"v":1,"seq":3,"rowId":2000,"hash":"…","at":"2026-…Z","key":"<fingerprint>","prev":"<sha256 of the line before>","sig":"<base64url>"}
// The signature covers JSON.stringify([v, seq, rowId, hash, at, key, prev]). Each line names the one before
// it (`prev`), so a line removed or changed in the middle shows. Someone who stole the HMAC key can re-key
// the chain, but cannot sign: the checkpoints then no longer match the rows. The public key verifies a
// copy of the file without any secret (checkpointsFromText).
import { createHash, sign, verify, type KeyObject } from "node:crypto";
import fs from "node:fs";
import { keyFingerprint } from "./keys";

export const CHECKPOINT_GENESIS = "0".repeat(64);

export interface Checkpoint {
  v: 1;
  seq: number;
  rowId: number;
  hash: string;
  at: string;
  key: string;
  prev: string;
  sig: string;
}

export interface ReadCheckpoint extends Checkpoint {
  line: number;
  /** Null when the line is sound; else why it cannot be trusted. */
  problem: string | null;
}

const signedPart = (c: Omit<Checkpoint, "sig">) => Buffer.from(JSON.stringify([c.v, c.seq, c.rowId, c.hash, c.at, c.key, c.prev]));
const lineHash = (text: string) => createHash("sha256").update(text).digest("hex");

/** Appends checkpoints to one file; callers hold the database's write lock, so appends never interleave. */
export class CheckpointLog {
  private cached: { size: number; last: { seq: number; rowId: number; atMs: number; lineHash: string } | null } | null = null;
  private readonly fingerprint: string;

  constructor(
    readonly file: string,
    private readonly signingKey: KeyObject,
    publicKey: KeyObject,
    private readonly headFile: string | null = null,
  ) {
    this.fingerprint = keyFingerprint(publicKey);
  }

  /** The newest checkpoint in the file (another process may have appended since: re-read when the size moved). */
  last(): { seq: number; rowId: number; atMs: number; lineHash: string } | null {
    let size = 0;
    try {
      size = fs.statSync(this.file).size;
    } catch {
      size = 0;
    }
    if (this.cached && this.cached.size === size) return this.cached.last;
    let last = null;
    if (size > 0) {
      const fd = fs.openSync(this.file, "r");
      try {
        const len = Math.min(size, 8192);
        const buf = Buffer.alloc(len);
        fs.readSync(fd, buf, 0, len, size - len);
        const lines = buf.toString("utf8").split("\n").filter((l) => l.trim());
        for (let i = lines.length - 1; i >= 0 && !last; i--) {
          try {
            const c = JSON.parse(lines[i]!) as Checkpoint;
            if (Number.isInteger(c.seq) && Number.isInteger(c.rowId)) last = { seq: c.seq, rowId: c.rowId, atMs: Date.parse(c.at), lineHash: lineHash(lines[i]!) };
          } catch {
            // a torn or foreign line: verification reports it; the next checkpoint follows the last sound one
          }
        }
      } finally {
        fs.closeSync(fd);
      }
    }
    // The file cut or deleted: go on from the recorded head, so the next line shows the gap.
    const head = readCheckpointHead(this.headFile);
    if (head && (!last || head.seq > last.seq)) last = head;
    this.cached = { size, last };
    return last;
  }

  /** Signs and appends a checkpoint for row `rowId` with hash `hash`; fsynced, so it outlives a crash. */
  append(rowId: number, hash: string, atMs: number = Date.now()): Checkpoint {
    const prev = this.last();
    const body = { v: 1 as const, seq: (prev?.seq ?? 0) + 1, rowId, hash, at: new Date(atMs).toISOString(), key: this.fingerprint, prev: prev?.lineHash ?? CHECKPOINT_GENESIS };
    const c: Checkpoint = { ...body, sig: sign(null, signedPart(body), this.signingKey).toString("base64url") };
    const text = JSON.stringify(c);
    const fd = fs.openSync(this.file, "a+", 0o600);
    try {
      // A torn last line (a crash mid-write) must not swallow this one.
      const size = fs.fstatSync(fd).size;
      let torn = false;
      if (size > 0) {
        const b = Buffer.alloc(1);
        fs.readSync(fd, b, 0, 1, size - 1);
        torn = b[0] !== 0x0a;
      }
      fs.writeSync(fd, (torn ? "\n" : "") + text + "\n");
      fs.fsyncSync(fd);
      this.cached = { size: fs.fstatSync(fd).size, last: { seq: c.seq, rowId, atMs, lineHash: lineHash(text) } };
    } finally {
      fs.closeSync(fd);
    }
    if (this.headFile) {
      const tmp = `${this.headFile}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify({ seq: c.seq, rowId, atMs, lineHash: lineHash(text) }) + "\n", { mode: 0o600 });
      fs.renameSync(tmp, this.headFile);
    }
    return c;
  }
}

/** The newest checkpoint as the writer recorded it in secrets/ (null when none was recorded). */
export function readCheckpointHead(file: string | null): { seq: number; rowId: number; atMs: number; lineHash: string } | null {
  if (!file) return null;
  try {
    const h = JSON.parse(fs.readFileSync(file, "utf8")) as { seq: number; rowId: number; atMs: number; lineHash: string };
    return Number.isInteger(h.seq) && typeof h.lineHash === "string" ? h : null;
  } catch {
    return null;
  }
}

/**
 * Reads a checkpoint file's text and checks every line against the public key: the signature, the key's
 * fingerprint, the sequence and the link to the line before. Needs no secret.
 */
export function checkpointsFromText(text: string, publicKey: KeyObject): ReadCheckpoint[] {
  const fingerprint = keyFingerprint(publicKey);
  const out: ReadCheckpoint[] = [];
  let prevHash = CHECKPOINT_GENESIS;
  let prevSeq = 0;
  let prevSound = true;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (!raw.trim()) continue;
    let c: Checkpoint;
    try {
      c = JSON.parse(raw) as Checkpoint;
    } catch {
      out.push({ v: 1, seq: 0, rowId: 0, hash: "", at: "", key: "", prev: "", sig: "", line: i + 1, problem: `line ${i + 1} is not a checkpoint (not JSON)` });
      prevHash = lineHash(raw);
      prevSeq += 1;
      prevSound = false;
      continue;
    }
    let problem: string | null = null;
    const shaped = c && c.v === 1 && Number.isInteger(c.seq) && Number.isInteger(c.rowId) && typeof c.hash === "string" && typeof c.at === "string" && typeof c.sig === "string" && typeof c.prev === "string";
    if (!shaped) problem = `line ${i + 1} is not a checkpoint`;
    else if (c.key !== fingerprint) problem = `line ${i + 1} was signed by another key (${c.key}, not ${fingerprint})`;
    else if (!verify(null, signedPart(c), publicKey, Buffer.from(c.sig, "base64url"))) problem = `line ${i + 1} (checkpoint ${c.seq}, row ${c.rowId}) has an invalid signature: it was altered`;
    // After a line already reported, the next one cannot link to it: report the altered line once, not every line after.
    else if (prevSound && (c.prev !== prevHash || c.seq !== prevSeq + 1)) problem = `line ${i + 1} (checkpoint ${c.seq}) does not follow checkpoint ${prevSeq}: checkpoints were removed or reordered`;
    out.push({ ...(shaped ? c : { v: 1, seq: 0, rowId: 0, hash: "", at: "", key: "", prev: "", sig: "" }), line: i + 1, problem });
    prevHash = lineHash(raw);
    prevSeq = shaped ? c.seq : prevSeq + 1;
    prevSound = !problem;
  }
  return out;
}

export function readCheckpointFile(file: string, publicKey: KeyObject): ReadCheckpoint[] {
  let text = "";
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  return checkpointsFromText(text, publicKey);
}
