// One batched writer per database connection, shared by everything in the process that records events.
import type { Db } from "../../../db/client";
import { processWide } from "../../process-wide";
import { AuditWriter, type AuditWriterOptions } from "./writer";
import { setting, type EnvSource } from "../../../env";

// Process-wide: Next may evaluate this module once per route bundle; all copies must share one writer per
// connection, or two queues would each batch events for the same chain.
const cache = processWide("auditWriters", () => new WeakMap<Db, AuditWriter>())();

/** OMNIFORGE_AUDIT_STDOUT=0 (or false, no, off) turns the JSON lines on standard output off (tests do). */
export function stdoutEnabled(source?: EnvSource): boolean {
  return setting("OMNIFORGE_AUDIT_STDOUT", source);
}

/** The audit sink for a database: one writer per connection, so one process never races itself for the head. */
export function auditSinkFor(db: Db, opts: AuditWriterOptions = {}): AuditWriter {
  let w = cache.get(db);
  if (!w) {
    w = new AuditWriter(db, { stdout: stdoutEnabled(), ...opts });
    cache.set(db, w);
  }
  return w;
}

/**
 * Writes this process's queued events for `db` (if any): call, and await, before a read that must see everything.
 * On SQLite the write is done before it returns (AuditWriter.flush).
 */
export function flushAudit(db: Db): Promise<void> {
  const w = cache.get(db);
  return w ? w.flush().then(() => undefined) : Promise.resolve();
}

