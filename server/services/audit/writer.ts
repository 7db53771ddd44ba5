// Appends audit events to the hash-chained audit_events table. This is the only write path: no update or
// delete of audit rows exists in the code (retention.ts is the one sanctioned removal, of archived rows).
//
// Batching: record() scrubs and timestamps the event at once, queues it, and a short timer (50 ms) or a
// full batch (1,000 events, written when the current task yields) writes the queue in ONE transaction, so a burst of tool calls from many
// playground sessions costs one commit per batch instead of one per event. flush() writes now; reads that
// must see everything (verification, the dashboard, tests) call it first. Pending events are also written
// on process exit.
//
// Chain head and several writers: the console and the CLI share the database file, several servers share one
// PostgreSQL, and a Next server may load this module more than once (one copy per route bundle, or after a dev
// reload). Each batch takes the database's lock on the chain first (chain-store.ts: BEGIN IMMEDIATE on SQLite, an
// advisory lock on PostgreSQL) and re-reads the head inside that transaction: one lookup per batch, cheaper than
// being wrong. A head cached across batches was tried and dropped: `PRAGMA data_version` does not see a second
// writer on the same connection.
//
// Keyed chain: each row's hash is an HMAC with the key in <home>/secrets (keys.ts), created on first use;
// the first keyed row's id is recorded there too. A signed checkpoint (checkpoints.ts) is appended inside
// the same write lock every AUDIT_CHECKPOINT_EVERY_ROWS rows, and a timer anchors a quiet head after
// AUDIT_CHECKPOINT_EVERY_MS.
import type { AuditEvent, AuditSink } from "../../runtime/audit/events";
import type { Db } from "../../../db/client";
import { dbKind, isOpen, type DbKind } from "../../../db/dialect";
import { AUDIT_CHECKPOINT_EVERY_MS, AUDIT_CHECKPOINT_EVERY_ROWS } from "../../domain/audit-chain";
import { postgresChainStore, sqliteChainStore, type ChainStore, type Head, type WrittenEvent } from "./chain-store";
import { CheckpointLog } from "./checkpoints";
import { toPendingFields, stdoutLine, type PendingFields } from "./event-row";
import { chainMac } from "./hash";
import { ensureAuditKeys, loadAuditKeys, recordKeyedFrom } from "./keys";


export interface AuditWriterOptions {
  /** Print each written event as one JSON line on standard output (for log shippers). */
  stdout?: boolean;
  /** Where stdout lines go (tests); default process.stdout. */
  out?: (chunk: string) => void;
  /** How long a queued event may wait before the batch is written. */
  flushMs?: number;
  /** A batch this large is written as soon as the current task yields (at 20x, at once). */
  maxBatch?: number;
  /** Checkpoint cadence (tests); defaults from server/domain/audit-chain.ts. */
  checkpointEveryRows?: number;
  checkpointEveryMs?: number;
}

// One exit hook for all writers: better-sqlite3 is synchronous, so even the "exit" event can still write. On
// PostgreSQL only "beforeExit" can (the write is async; the process waits for it and fires the event again).
const live = new Set<AuditWriter>();
let hooked = false;
function hookExit() {
  if (hooked) return;
  hooked = true;
  const flushAll = () => {
    for (const w of live) {
      if (w.pending() > 0 || w.kind === "sqlite") w.flushQuietly();
      w.checkpointQuietly();
    }
  };
  process.on("beforeExit", flushAll);
  process.on("exit", flushAll);
}

export class AuditWriter implements AuditSink {
  private readonly store: ChainStore;
  /** Which database: on SQLite a write completes before the call returns (the exit hook relies on it). */
  readonly kind: DbKind;
  private queue: PendingFields[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private immediate: ReturnType<typeof setImmediate> | null = null;
  private failures = 0;
  private readonly flushMs: number;
  private readonly maxBatch: number;
  private keys: ReturnType<typeof ensureAuditKeys> | null = null;
  private checkpoints: CheckpointLog | null = null;
  private checkpointTimer: ReturnType<typeof setTimeout> | null = null;
  /** On PostgreSQL: the batch being written, so batches go out in order and flush() waits for one in flight. */
  private writing: Promise<unknown> = Promise.resolve();
  /** Rows this writer appended that no checkpoint names yet. */
  private unanchored = false;

  constructor(
    private readonly db: Db,
    private readonly opts: AuditWriterOptions = {},
  ) {
    this.kind = dbKind(db);
    this.store = this.kind === "sqlite" ? sqliteChainStore(db) : postgresChainStore(db);
    this.flushMs = opts.flushMs ?? 50;
    this.maxBatch = opts.maxBatch ?? 1000;
    live.add(this);
    hookExit();
  }

  /** Queues one event; it is written within flushMs (never throws: a failed write is retried). */
  record(event: AuditEvent): void {
    this.enqueue(toPendingFields(event));
  }

  recordMany(events: AuditEvent[]): void {
    for (const e of events) this.enqueue(toPendingFields(e));
  }

  /** Events queued and not yet written. */
  pending(): number {
    return this.queue.length;
  }

  /**
   * Writes everything queued now, in one transaction, and resolves when it and any batch before it are committed;
   * fails if the database refuses (the queue is kept). On SQLite the rows are written, or the error thrown, before
   * this returns, so callers not yet awaiting it (services still synchronous) keep today's behaviour.
   */
  flush(): Promise<WrittenEvent[]> {
    const written = this.drain();
    return Array.isArray(written) ? Promise.resolve(written) : written;
  }

  /** Takes the queue and writes it: at once on SQLite, after the batch in flight on PostgreSQL. */
  private drain(): WrittenEvent[] | Promise<WrittenEvent[]> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.immediate) {
      clearImmediate(this.immediate);
      this.immediate = null;
    }
    const batch = this.queue;
    this.queue = [];
    const keep = (err: unknown): never => {
      this.queue = batch.concat(this.queue);
      throw err;
    };
    if (this.store.kind === "sqlite") {
      if (batch.length === 0) return [];
      try {
        const written = this.append(batch) as WrittenEvent[];
        this.failures = 0;
        return written;
      } catch (err) {
        return keep(err);
      }
    }
    if (batch.length === 0) return this.writing.then(() => []);
    const run = this.writing.then(() => this.append(batch));
    this.writing = run.catch(() => {});
    return run.then((written) => {
      this.failures = 0;
      return written;
    }, keep);
  }

  /** flush() for timers and exit hooks: a failure is reported on stderr and retried later. */
  flushQuietly(): void {
    if (!isOpen(this.db)) {
      if (this.queue.length) process.stderr.write(`audit: database closed with ${this.queue.length} events unwritten\n`);
      this.queue = [];
      live.delete(this);
      return;
    }
    const failed = (err: unknown) => {
      this.failures += 1;
      process.stderr.write(`audit: writing ${this.queue.length} events failed (${(err as Error).message}); retrying\n`);
      this.schedule(Math.min(5_000, this.flushMs * 2 ** this.failures));
    };
    try {
      const r = this.drain();
      if (!Array.isArray(r)) r.catch(failed);
    } catch (err) {
      failed(err);
    }
  }

  /** Writes pending events, anchors them with a checkpoint, and stops this writer's exit hook. */
  close(): Promise<void> {
    const stop = () => {
      if (this.checkpointTimer) clearTimeout(this.checkpointTimer);
      this.checkpointTimer = null;
      live.delete(this);
    };
    this.flushQuietly();
    if (this.store.kind === "sqlite") {
      // Done before this returns, as callers that do not await it (tests, exit paths) have always relied on.
      this.checkpointQuietly();
      stop();
      return Promise.resolve();
    }
    return (async () => {
      await this.writing;
      this.checkpointQuietly();
      await this.writing;
      stop();
    })();
  }

  /**
   * Signs a checkpoint for the current head now, unless the newest checkpoint already names it. Resolves to
   * the row id checkpointed, or null. Takes the chain's lock, so it never interleaves with another writer.
   */
  async checkpointNow(): Promise<number | null> {
    return this.checkpointUnderLock();
  }

  private checkpointUnderLock(): (number | null) | Promise<number | null> {
    if (this.checkpointTimer) clearTimeout(this.checkpointTimer);
    this.checkpointTimer = null;
    const log = this.checkpointLog();
    if (!log) return null;
    const sign = (head: Head) => {
      const last = log.last();
      this.unanchored = false;
      if (head.id === 0 || (last && last.rowId >= head.id)) return null;
      log.append(head.id, head.hash);
      return head.id;
    };
    if (this.store.kind === "sqlite") return this.store.locked((head) => sign(head));
    const store = this.store;
    const run = this.writing.then(() => store.locked(async (head) => sign(head)));
    this.writing = run.catch(() => {});
    return run;
  }

  /** checkpointNow() for timers and exit hooks: never throws. */
  checkpointQuietly(): void {
    if (!isOpen(this.db) || !this.keys) return;
    // On PostgreSQL each check is a transaction: at "beforeExit" one with nothing to anchor would fire the event again.
    if (this.store.kind === "postgres" && !this.unanchored) return;
    const failed = (err: unknown) => process.stderr.write(`audit: writing a checkpoint failed (${(err as Error).message})\n`);
    try {
      const r = this.checkpointUnderLock();
      if (r instanceof Promise) r.catch(failed);
    } catch (err) {
      failed(err);
    }
  }

  private checkpointLog(): CheckpointLog | null {
    if (this.checkpoints) return this.checkpoints;
    const keys = (this.keys ??= ensureAuditKeys(this.db));
    if (!keys.checkpointsFile) return null; // an in-memory database: nothing outlives the process anyway
    this.checkpoints = new CheckpointLog(keys.checkpointsFile, keys.signingKey, keys.publicKey, keys.checkpointHeadFile);
    return this.checkpoints;
  }

  /**
   * Appends rows now, in one transaction under the chain's lock, chained onto the current head. The queue uses
   * it; so does the benchmark's bulk fill. Returns the rows as written (on PostgreSQL, when committed).
   */
  append(batch: PendingFields[]): WrittenEvent[] | Promise<WrittenEvent[]> {
    if (batch.length === 0) return [];
    const log = this.checkpointLog();
    const done = (written: WrittenEvent[]) => {
      if (this.opts.stdout) {
        const text = written.map(stdoutLine).join("");
        if (this.opts.out) this.opts.out(text);
        else process.stdout.write(text);
      }
      return written;
    };
    if (this.store.kind === "sqlite") {
      return done(
        this.store.locked((head, insert) => {
          const out = this.chain(head, batch);
          for (const row of out) insert(row);
          this.checkpointIfDue(log, out);
          return out;
        }),
      );
    }
    return this.store
      .locked(async (head, insert) => {
        const out = this.chain(head, batch);
        await insert(out);
        this.checkpointIfDue(log, out);
        return out;
      })
      .then(done);
  }

  /** Gives each pending row its id and keyed hash after `head`; called under the chain's lock. */
  private chain(head: Head, rows: PendingFields[]): WrittenEvent[] {
    const keys = this.keys!;
    let { id, hash } = head;
    if (keys.keyedFrom === null) {
      // Under the lock: of two processes, the first to write keyed rows records where keying began.
      recordKeyedFrom(this.db, keys, id + 1);
      this.keys = { ...keys, keyedFrom: loadAuditKeys(this.db).keyedFrom };
    }
    const out: WrittenEvent[] = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      id += 1;
      const row = rows[i]! as WrittenEvent; // completed in place: the pending object is not used again
      row.id = id;
      row.prevHash = hash;
      row.hash = chainMac(keys.hmacKey, hash, row);
      out[i] = row;
      hash = row.hash;
    }
    return out;
  }

  /** Inside the append's transaction, so the checkpoint names rows that are committed with it. */
  private checkpointIfDue(log: CheckpointLog | null, out: WrittenEvent[]): void {
    if (!log || out.length === 0) return;
    const { id, hash } = out[out.length - 1]!;
    const last = log.last();
    const everyRows = this.opts.checkpointEveryRows ?? AUDIT_CHECKPOINT_EVERY_ROWS;
    const everyMs = this.opts.checkpointEveryMs ?? AUDIT_CHECKPOINT_EVERY_MS;
    if (!last || id - last.rowId >= everyRows || (id > last.rowId && Date.now() - last.atMs >= everyMs)) {
      log.append(id, hash);
      this.unanchored = false;
    } else {
      this.unanchored = true;
      this.scheduleCheckpoint(everyMs);
    }
  }

  /** Rows written and not yet checkpointed are anchored after at most `ms`, even if nothing else is written. */
  private scheduleCheckpoint(ms: number): void {
    if (this.checkpointTimer) return;
    this.checkpointTimer = setTimeout(() => {
      this.checkpointTimer = null;
      this.checkpointQuietly();
    }, ms);
    this.checkpointTimer.unref?.();
  }

  private enqueue(fields: PendingFields): void {
    this.queue.push(fields);
    // A full batch is written as soon as the current task yields (a burst from async work becomes a few
    // large transactions, which is what makes writes cheap); a synchronous loop that never yields is
    // written at 20 batches, so memory stays bounded either way.
    if (this.queue.length >= this.maxBatch * 20) this.flushQuietly();
    else if (this.queue.length >= this.maxBatch) this.scheduleNow();
    else this.schedule(this.flushMs);
  }

  private scheduleNow(): void {
    if (this.immediate) return;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.immediate = setImmediate(() => {
      this.immediate = null;
      this.flushQuietly();
    });
    this.immediate.unref?.();
  }

  private schedule(ms: number): void {
    if (this.timer || this.immediate) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flushQuietly();
    }, ms);
    this.timer.unref?.();
  }
}
