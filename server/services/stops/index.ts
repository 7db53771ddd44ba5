// Stopping work that runs on another console server (issue #38). A playground turn or a trigger-test run lives in
// the process that started it, and the person's Stop may land on any server behind the proxy, so a stop is a row
// of `stop_requests`: the server asked writes it (once, audited once), and the server running the work polls for
// the rows of its runs while any run and aborts the ones named. The server asked also polls at once, so a stop
// of its own run takes effect without waiting for the timer.
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { stopRequests } from "../../../db/schema";
import { processWide } from "../../process-wide";
import type { AuditActor, AuditSink } from "../../runtime/audit/events";

export type StopKind = "turn" | "eval";

/** How often a server running work asks for stops: a stop asked on another server takes effect within this. */
export const STOP_POLL_MS = 500;

interface Watched {
  db: Db;
  kind: StopKind;
  target: string;
  controller: AbortController;
}

interface StopState {
  watched: Map<string, Watched>;
  timer: NodeJS.Timeout | null;
  /** The poll running now, and one queued behind it (a request made during a poll must be seen by a later one). */
  current: Promise<void> | null;
  queued: Promise<void> | null;
}

const state = processWide<StopState>("stopRequests", () => ({ watched: new Map(), timer: null, current: null, queued: null }));
const keyOf = (kind: StopKind, target: string) => `${kind}\u0000${target}`;

/**
 * Follows stop requests for one run of this server until the returned function is called (when the run ends; it
 * also removes the run's request). `controller` is aborted once a stop is asked for, here or on another server.
 */
export function watchStop(db: Db, kind: StopKind, target: string, controller: AbortController): () => Promise<void> {
  const s = state();
  const key = keyOf(kind, target);
  s.watched.set(key, { db, kind, target, controller });
  if (!s.timer) {
    s.timer = setInterval(() => void pollStops(), STOP_POLL_MS);
    s.timer.unref();
  }
  return async () => {
    if (s.watched.get(key)?.controller === controller) s.watched.delete(key);
    if (!s.watched.size && s.timer) {
      clearInterval(s.timer);
      s.timer = null;
    }
    try {
      await db.delete(stopRequests).where(and(eq(stopRequests.kind, kind), eq(stopRequests.target, target)));
    } catch {
      // The database does not answer: the row stays, naming a run that has ended, which nothing reads again.
    }
  };
}

/**
 * Asks for a run to stop, wherever it runs. True when this was the first request for it: a second click, or the
 * same click retried on another server, changes nothing and is not audited again.
 */
export async function requestStop(
  db: Db,
  audited: { audit: AuditSink; actor: AuditActor; tenant?: string | null },
  kind: StopKind,
  target: string,
  details: Record<string, unknown>,
): Promise<boolean> {
  const made = await db
    .insert(stopRequests)
    .values({ kind, target, requestedBy: audited.actor.id, requestedAt: Date.now() })
    .onConflictDoNothing()
    .returning({ kind: stopRequests.kind });
  if (!made.length) return false;
  audited.audit.record({
    type: "stop_requested",
    actor: audited.actor,
    outcome: "ok",
    ...(audited.tenant ? { tenant: audited.tenant } : {}),
    details: { kind, ...details },
  });
  void pollStops();
  return true;
}

/** Looks once for requests naming this server's runs, and aborts those. Resolves when the look is done. */
export function pollStops(): Promise<void> {
  const s = state();
  if (!s.current) {
    s.current = lookOnce(s).finally(() => (s.current = null));
    return s.current;
  }
  s.queued ??= s.current.then(() => {
    s.queued = null;
    return pollStops();
  });
  return s.queued;
}

async function lookOnce(s: StopState): Promise<void> {
  const byDb = new Map<Db, string[]>();
  for (const w of s.watched.values()) byDb.set(w.db, [...(byDb.get(w.db) ?? []), w.target]);
  for (const [db, targets] of byDb) {
    let rows: { kind: string; target: string }[];
    try {
      rows = await db.select({ kind: stopRequests.kind, target: stopRequests.target }).from(stopRequests).where(inArray(stopRequests.target, targets));
    } catch {
      continue; // the database does not answer: the next poll asks again
    }
    for (const r of rows) s.watched.get(keyOf(r.kind as StopKind, r.target))?.controller.abort(new Error("stopped by the user"));
  }
}
