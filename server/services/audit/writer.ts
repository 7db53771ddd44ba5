// Appends audit events to the hash-chained audit_events table. This is the only write path: no update or
// delete of audit rows exists in the code (retention.ts is the one sanctioned removal, of archived rows).
//
// Batching: record() scrubs and timestamps the event at once, queues it, and a short timer (50 ms) or a
// full batch (1,000 events, written when the current task yields) writes the queue in ONE transaction, so a burst of tool calls from many
// playground sessions costs one commit per batch instead of one per event. flush() writes now; reads that
// must see everything (verification, the dashboard, tests) call it first. Pending events are also written
// on process exit.
//
// Chain head and several writers: the console and the CLI share the database file, and a Next server may
// load this module more than once (one copy per route bundle, or after a dev reload). Each batch runs in
// BEGIN IMMEDIATE, so the write lock is held before the head is read, and the head is re-read inside that
// transaction: one rowid lookup per batch (microseconds), cheaper than being wrong. A head cached across
// batches was tried and dropped: `PRAGMA data_version` does not see a second writer on the same connection.
//
// Keyed chain: each row's hash is an HMAC with the key in <home>/secrets (keys.ts), created on first use;
// the first keyed row's id is recorded there too. A signed checkpoint (checkpoints.ts) is appended inside
// the same write lock every AUDIT_CHECKPOINT_EVERY_ROWS rows, and a timer anchors a quiet head after
// AUDIT_CHECKPOINT_EVERY_MS.
import type { AuditEvent, AuditSink } from "../../runtime/audit/events";
import { desc, fillPlaceholders, is, Param, Placeholder, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { auditEvents } from "../../../db/schema/audit";
import { AUDIT_CHAIN_HMAC, AUDIT_CHECKPOINT_EVERY_MS, AUDIT_CHECKPOINT_EVERY_ROWS } from "../../domain/audit-chain";
import { CheckpointLog } from "./checkpoints";
import { chainMac, GENESIS_HASH, type ChainedFields } from "./hash";
import { ensureAuditKeys, loadAuditKeys, recordKeyedFrom } from "./keys";
import { archivedHeadQuery } from "./rows";
import { scrubDetails } from "./scrub";

const MAX_DETAILS = 8_000;

/** An event as it is stored, without its position in the chain. */
export type PendingFields = Omit<ChainedFields, "id">;

export interface WrittenEvent extends ChainedFields {
  prevHash: string;
  hash: string;
}

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

/**
 * A lone UTF-16 surrogate (JSON's "\ud800" from an agent's telemetry, or a cut through an emoji) as U+FFFD. SQLite
 * stores text as UTF-8 and reads such a unit back as other characters, so a row hashed with it never verified again:
 * the audit reported tampering. Hashed and stored as the same well-formed text, it verifies.
 */
const wellFormed = (s: string) => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");

export function toPendingFields(e: AuditEvent): PendingFields {
  let details: string | null = null;
  if (e.details && typeof e.details === "object") {
    details = JSON.stringify(scrubDetails(e.details));
    if (details.length > MAX_DETAILS) details = JSON.stringify({ truncated: true, preview: details.slice(0, MAX_DETAILS) });
    if (details === "{}") details = null;
  }
  const at = e.at instanceof Date && !Number.isNaN(e.at.getTime()) ? e.at.getTime() : Date.now();
  const str = (v: unknown) => (typeof v === "string" && v !== "" ? wellFormed(v.slice(0, 500)) : null);
  return {
    at,
    type: wellFormed(String(e.type)),
    actorId: str(e.actor?.id),
    actorEmail: str(e.actor?.email),
    sessionId: str(e.sessionId),
    skill: str(e.skill),
    layer: str(e.layer),
    digest: str(e.digest),
    tool: str(e.tool),
    model: str(e.model),
    mode: str(e.mode),
    outcome: str(e.outcome),
    durationMs: typeof e.durationMs === "number" && Number.isFinite(e.durationMs) ? Math.round(e.durationMs) : null,
    details,
    // Only set when the event came from an agent, so console rows keep their old serialisation (hash.ts).
    ...(str(e.tenant) ? { tenant: str(e.tenant) } : {}),
    ...(e.source ? { sourceAgent: str(e.source.agent), sourceVersion: str(e.source.version), sourceHost: str(e.source.host), sourceUser: str(e.source.user) } : {}),
  };
}

/** The standard-output form of a written event: one JSON object, null fields left out, time in ISO 8601. */
export function stdoutLine(row: WrittenEvent): string {
  const o: Record<string, unknown> = { log: "omniforge.audit", id: row.id, at: new Date(row.at).toISOString() };
  for (const [k, v] of Object.entries(row)) {
    if (k === "id" || k === "at" || v === null) continue;
    o[k] = k === "details" ? JSON.parse(v as string) : v;
  }
  return JSON.stringify(o) + "\n";
}

// One exit hook for all writers: better-sqlite3 is synchronous, so even the "exit" event can still write.
const live = new Set<AuditWriter>();
let hooked = false;
function hookExit() {
  if (hooked) return;
  hooked = true;
  const flushAll = () => {
    for (const w of live) {
      w.flushQuietly();
      w.checkpointQuietly();
    }
  };
  process.on("beforeExit", flushAll);
  process.on("exit", flushAll);
}

/** The stored fields an append writes; `chain` is always the keyed chain. */
const INSERT_FIELDS = ["id", "at", "type", "actorId", "actorEmail", "sessionId", "skill", "layer", "digest", "tool", "model", "mode", "outcome", "durationMs", "details", "prevHash", "hash", "sourceAgent", "sourceVersion", "sourceHost", "sourceUser", "tenant"] as const satisfies readonly (keyof WrittenEvent)[];

/**
 * The INSERT as drizzle writes it from db/schema/audit.ts, prepared on the connection and bound by position in
 * the order drizzle placed its placeholders. Drizzle's own prepared run() fills placeholders on every call:
 * measured 9.1 against 6.4 microseconds a row, which the writer's throughput (issue 8) cannot spare.
 */
function prepareInsert(db: Db): (row: WrittenEvent) => void {
  const values = Object.fromEntries(INSERT_FIELDS.map((k) => [k, sql.placeholder(k)]));
  const q = db
    .insert(auditEvents)
    .values({ ...(values as unknown as typeof auditEvents.$inferInsert), chain: AUDIT_CHAIN_HMAC })
    .toSQL();
  // Each parameter is a Param (value + column) around a placeholder, or around a fixed value such as `chain`.
  // The audit columns are plain integers and text, whose driver value is the value itself.
  // drizzle's is(), not instanceof: a server bundle may hold two copies of drizzle's classes.
  const inner = (p: unknown) => (is(p, Param) ? p.value : p);
  const order = q.params.map((p) => {
    const v = inner(p);
    return is(v, Placeholder) ? (v.name as keyof WrittenEvent) : null;
  });
  const fixed = fillPlaceholders(q.params.map((p, i) => (order[i] ? null : p)), {});
  const stmt = db.$client.prepare(q.sql);
  const args: unknown[] = new Array(order.length);
  return (row) => {
    for (let i = 0; i < order.length; i++) {
      const k = order[i];
      args[i] = k ? (row[k] ?? null) : fixed[i];
    }
    stmt.run(args);
  };
}

function prepareStatements(db: Db) {
  return {
    insert: prepareInsert(db),
    head: db.select({ id: auditEvents.id, hash: auditEvents.hash }).from(auditEvents).orderBy(desc(auditEvents.id)).limit(1).prepare(),
    archivedHead: archivedHeadQuery(db),
  };
}

export class AuditWriter implements AuditSink {
  private readonly stmts: ReturnType<typeof prepareStatements>;
  private queue: PendingFields[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private immediate: ReturnType<typeof setImmediate> | null = null;
  private failures = 0;
  private readonly flushMs: number;
  private readonly maxBatch: number;
  private keys: ReturnType<typeof ensureAuditKeys> | null = null;
  private checkpoints: CheckpointLog | null = null;
  private checkpointTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly db: Db,
    private readonly opts: AuditWriterOptions = {},
  ) {
    this.stmts = prepareStatements(db);
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

  /** Writes everything queued now, in one transaction. Throws if the database refuses (the queue is kept). */
  flush(): WrittenEvent[] {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.immediate) {
      clearImmediate(this.immediate);
      this.immediate = null;
    }
    if (this.queue.length === 0) return [];
    const batch = this.queue;
    this.queue = [];
    try {
      const written = this.append(batch);
      this.failures = 0;
      return written;
    } catch (err) {
      this.queue = batch.concat(this.queue);
      throw err;
    }
  }

  /** flush() for timers and exit hooks: a failure is reported on stderr and retried later. */
  flushQuietly(): void {
    if (!this.db.$client.open) {
      if (this.queue.length) process.stderr.write(`audit: database closed with ${this.queue.length} events unwritten\n`);
      this.queue = [];
      live.delete(this);
      return;
    }
    try {
      this.flush();
    } catch (err) {
      this.failures += 1;
      process.stderr.write(`audit: writing ${this.queue.length} events failed (${(err as Error).message}); retrying\n`);
      this.schedule(Math.min(5_000, this.flushMs * 2 ** this.failures));
    }
  }

  /** Writes pending events, anchors them with a checkpoint, and stops this writer's exit hook. */
  close(): void {
    this.flushQuietly();
    this.checkpointQuietly();
    if (this.checkpointTimer) clearTimeout(this.checkpointTimer);
    this.checkpointTimer = null;
    live.delete(this);
  }

  /**
   * Signs a checkpoint for the current head now, unless the newest checkpoint already names it. Returns
   * the row id checkpointed, or null. Takes the write lock, so it never interleaves with another writer.
   */
  checkpointNow(): number | null {
    if (this.checkpointTimer) clearTimeout(this.checkpointTimer);
    this.checkpointTimer = null;
    const log = this.checkpointLog();
    if (!log) return null;
    const run = this.db.$client.transaction(() => {
      const head = this.currentHead();
      const last = log.last();
      if (head.id === 0 || (last && last.rowId >= head.id)) return null;
      log.append(head.id, head.hash);
      return head.id;
    });
    return run.immediate();
  }

  /** checkpointNow() for timers and exit hooks: never throws. */
  checkpointQuietly(): void {
    if (!this.db.$client.open || !this.keys) return;
    try {
      this.checkpointNow();
    } catch (err) {
      process.stderr.write(`audit: writing a checkpoint failed (${(err as Error).message})\n`);
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
   * Appends rows now, in one BEGIN IMMEDIATE transaction, chained onto the current head. The queue uses
   * it; so does the benchmark's bulk fill. Returns the rows as written.
   */
  append(batch: PendingFields[]): WrittenEvent[] {
    if (batch.length === 0) return [];
    const c = this.db.$client;
    const log = this.checkpointLog();
    const keys = this.keys!;
    const run = c.transaction((rows: PendingFields[]) => {
      let { id, hash } = this.currentHead();
      if (keys.keyedFrom === null) {
        // Under the write lock: of two processes, the first to write keyed rows records where keying began.
        recordKeyedFrom(this.db, keys, id + 1);
        this.keys = { ...keys, keyedFrom: loadAuditKeys(this.db).keyedFrom };
      }
      const out: WrittenEvent[] = new Array(rows.length);
      for (let i = 0; i < rows.length; i++) {
        id += 1;
        const r = rows[i]!;
        const row = r as WrittenEvent; // completed in place: the pending object is not used again
        row.id = id;
        row.prevHash = hash;
        row.hash = chainMac(keys.hmacKey, hash, row);
        this.stmts.insert(row);
        const next = row.hash;
        out[i] = row;
        hash = next;
      }
      if (log) {
        // Inside the transaction, so the checkpoint names rows that are committed with it.
        const last = log.last();
        const everyRows = this.opts.checkpointEveryRows ?? AUDIT_CHECKPOINT_EVERY_ROWS;
        const everyMs = this.opts.checkpointEveryMs ?? AUDIT_CHECKPOINT_EVERY_MS;
        if (!last || id - last.rowId >= everyRows || (id > last.rowId && Date.now() - last.atMs >= everyMs)) log.append(id, hash);
        else this.scheduleCheckpoint(everyMs);
      }
      return out;
    });
    const written = run.immediate(batch);
    if (this.opts.stdout) {
      const text = written.map(stdoutLine).join("");
      if (this.opts.out) this.opts.out(text);
      else process.stdout.write(text);
    }
    return written;
  }

  private currentHead(): { id: number; hash: string } {
    const row = this.stmts.head.get();
    const archived = this.stmts.archivedHead.get();
    // After retention removed every row, the chain continues from the archived head.
    if (row && (!archived || row.id > archived.id)) return row;
    return archived ?? { id: 0, hash: GENESIS_HASH };
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
