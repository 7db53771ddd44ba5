// A session's one running turn, claimed in the database (issue #38), so "one turn at a time" and "is a turn running"
// hold across console servers: a Send on any server claims the session's `turn_claims` row and a second Send, here or
// on another server, finds it taken. The claim is a lease: the server running the turn renews it every
// CLAIM_RENEW_MS while the turn runs and removes it when the turn ends; a server that died stops renewing, so after
// CLAIM_LEASE_MS its session is free again.
import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import { and, eq, gte, inArray, lt } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { playgroundSessions, turnClaims } from "../../../db/schema";
import { processWide } from "../../process-wide";
import type { DisclosureMode } from "../../runtime/agent";
import { SERVER_ID } from "../health";

/** How long a claim holds without a renewal: the time a crashed server's session stays busy. */
const CLAIM_LEASE_MS = 30_000;
/** How often the server running turns renews their claims (a third of the lease, so one missed renewal is no loss). */
const CLAIM_RENEW_MS = 10_000;
/** How often a follower on a server that does not run the turn looks whether it has ended. */
const REMOTE_FOLLOW_MS = 1_000;

interface Held {
  db: Db;
  sessionId: string;
}

const held = processWide("turnClaims", () => ({ claims: new Map<string, Held>(), timer: null as NodeJS.Timeout | null }));

/** A session's running turn as every server sees it; `elsewhere` when another server runs it (its live events are there). */
export interface RunningTurnView {
  turn: number;
  mode: DisclosureMode;
  startedAt: number;
  server: string;
  elsewhere: boolean;
}

/**
 * Claims the session for a turn: the claim's token, or null when a live claim (a turn here or on another server)
 * holds it. An expired claim is removed first; two servers doing so at once still insert only one row.
 */
export async function claimSession(db: Db, sessionId: string, mode: DisclosureMode): Promise<string | null> {
  const now = Date.now();
  await db.delete(turnClaims).where(and(eq(turnClaims.sessionId, sessionId), lt(turnClaims.leaseUntil, now)));
  const claim = randomUUID();
  const made = await db
    .insert(turnClaims)
    .values({ sessionId, claim, turn: null, mode, server: SERVER_ID, startedAt: now, leaseUntil: now + CLAIM_LEASE_MS })
    .onConflictDoNothing()
    .returning({ claim: turnClaims.claim });
  if (!made.length) return null;
  const s = held();
  s.claims.set(claim, { db, sessionId });
  if (!s.timer) {
    s.timer = setInterval(() => void renewClaims(), CLAIM_RENEW_MS);
    s.timer.unref();
  }
  return claim;
}

/** Names the claimed turn once its request is stored: from then on every server shows it as running. */
export async function claimTurn(db: Db, claim: string, turn: number): Promise<void> {
  await db.update(turnClaims).set({ turn }).where(eq(turnClaims.claim, claim));
}

/** Ends the claim (the turn has ended, its answer is stored): the session takes the next Send on any server. */
export async function releaseClaim(db: Db, claim: string): Promise<void> {
  const s = held();
  s.claims.delete(claim);
  if (!s.claims.size && s.timer) {
    clearInterval(s.timer);
    s.timer = null;
  }
  try {
    await db.delete(turnClaims).where(eq(turnClaims.claim, claim));
  } catch {
    // The database does not answer: the claim expires by itself after CLAIM_LEASE_MS.
  }
}

/** Renews the lease of every claim this server holds (its timer's work, callable from tests). */
export async function renewClaims(): Promise<void> {
  const byDb = new Map<Db, string[]>();
  for (const [claim, h] of held().claims) byDb.set(h.db, [...(byDb.get(h.db) ?? []), claim]);
  for (const [db, claims] of byDb) {
    try {
      await db.update(turnClaims).set({ leaseUntil: Date.now() + CLAIM_LEASE_MS }).where(inArray(turnClaims.claim, claims));
    } catch {
      // The database does not answer: the next renewal tries again, well within the lease.
    }
  }
}

/** The session's running turn, on whichever server: null when none runs, or while it is still being set up. */
export async function runningTurn(db: Db, sessionId: string): Promise<RunningTurnView | null> {
  const row = (await db
    .select()
    .from(turnClaims)
    .where(and(eq(turnClaims.sessionId, sessionId), gte(turnClaims.leaseUntil, Date.now())))
    .limit(1))[0];
  if (!row || row.turn === null) return null;
  return { turn: row.turn, mode: row.mode as DisclosureMode, startedAt: row.startedAt, server: row.server, elsewhere: !held().claims.has(row.claim) };
}

/** The user's sessions with a turn running on any server (the session list's badge), in one query. */
export async function runningSessions(db: Db, userId: string): Promise<Set<string>> {
  const rows = await db
    .select({ sessionId: turnClaims.sessionId })
    .from(turnClaims)
    .innerJoin(playgroundSessions, eq(playgroundSessions.id, turnClaims.sessionId))
    .where(and(eq(playgroundSessions.userId, userId), gte(turnClaims.leaseUntil, Date.now())));
  return new Set(rows.map((r) => r.sessionId));
}

/**
 * Waits, without events, until a turn another server runs has ended (its claim is gone or expired): that server has
 * the live events, and its answer with all its steps is in the history once the claim is gone.
 */
export async function remoteTurnEnded(db: Db, sessionId: string, signal?: AbortSignal): Promise<void> {
  while (!signal?.aborted) {
    let ended: boolean;
    try {
      ended = !(await runningTurn(db, sessionId))?.elsewhere;
    } catch {
      ended = false; // the database does not answer: ask again
    }
    if (ended) return;
    try {
      await delay(REMOTE_FOLLOW_MS, undefined, signal ? { signal } : {});
    } catch {
      return; // the follower went away
    }
  }
}
