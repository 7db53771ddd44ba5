// A session's one running turn, claimed in the database (issue #38), so "one turn at a time" and "is a turn running"
// hold across console servers: a Send on any server claims the session's `turn_claims` row and a second Send, here or
// on another server, finds it taken. The claim is a lease: the server running the turn renews it every
// CLAIM_RENEW_MS while the turn runs and removes it when the turn ends; a server that died stops renewing, so after
// CLAIM_LEASE_MS its session is free again. A turn whose claim lapses (its renewal found the row gone or another's, or
// could not renew before the lease would pass) is told, and stops: past its lease another server may run the session.
// The turn's results are written only while its row is still its own (fenceClaim), so a lapsed turn never writes
// beside the one that took over. A server that restarts drops the claims of its earlier life (releaseEarlierClaims).
import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import os from "node:os";
import { and, eq, gte, inArray, lt } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { turnClaims } from "../../../db/schema";
import { processWide } from "../../process-wide";
import type { DisclosureMode } from "../../runtime/agent";
import { SERVER_ID, serverIdParts } from "../server-id";
import type { ClaimLapse } from "./types";

/** How long a claim holds without a renewal: the time a crashed server's session stays busy. */
const CLAIM_LEASE_MS = 30_000;
/** How often the server running turns renews their claims (a third of the lease, so one missed renewal is no loss). */
const CLAIM_RENEW_MS = 10_000;
/** How often a follower on a server that does not run the turn looks whether it has ended. */
const REMOTE_FOLLOW_MS = 1_000;

interface Held {
  db: Db;
  sessionId: string;
  /** Until when the database holds the claim for sure: the last renewal that succeeded, from the moment it was sent. */
  leaseUntil: number;
  /** Told once when the claim lapses; a lapse before anyone listens waits in `lapsed`. */
  onLapse?: (why: ClaimLapse) => void;
  lapsed?: ClaimLapse;
}

const held = processWide("turnClaims", () => ({ claims: new Map<string, Held>(), timer: null as NodeJS.Timeout | null, renewing: false }));

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
 * holds it. An expired claim is taken over in the same statement (its row made this claim's; the turn that held it
 * finds at its next renewal that the row is another's); of two servers doing so at once, one gets the row.
 */
export async function claimSession(db: Db, sessionId: string, mode: DisclosureMode): Promise<string | null> {
  const now = Date.now();
  const claim = randomUUID();
  const row = { claim, turn: null, mode, server: SERVER_ID, startedAt: now, leaseUntil: now + CLAIM_LEASE_MS };
  const made = await db
    .insert(turnClaims)
    .values({ sessionId, ...row })
    .onConflictDoUpdate({ target: turnClaims.sessionId, set: row, setWhere: lt(turnClaims.leaseUntil, now) })
    .returning({ claim: turnClaims.claim });
  if (!made.length) return (await dropDeadHolder(db, sessionId)) ? claimSession(db, sessionId, mode) : null;
  const s = held();
  s.claims.set(claim, { db, sessionId, leaseUntil: now + CLAIM_LEASE_MS });
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

/** Calls `fn` when the claim lapses (at once if it already has); the turn stops then. */
export function onClaimLapse(claim: string, fn: (why: ClaimLapse) => void): void {
  const h = held().claims.get(claim);
  if (!h) return;
  if (h.lapsed) fn(h.lapsed);
  else h.onLapse = fn;
}

function lapse(claim: string, why: ClaimLapse): void {
  const s = held();
  const h = s.claims.get(claim);
  if (!h || h.lapsed) return;
  h.lapsed = why;
  h.onLapse?.(why);
}

/**
 * Renews the lease of every claim this server holds (its timer's work; `now` lets a test be a tick that comes late).
 * A claim whose lease would pass before the next tick, all renewals since the last good one having failed, lapses
 * first: the turn stops while its row is still its own, before another server may take the session. A renewal that
 * finds its row gone or another's lapses too. A renewal still waiting on the database is not doubled.
 */
export async function renewClaims(now = Date.now()): Promise<void> {
  const s = held();
  const byDb = new Map<Db, string[]>();
  for (const [claim, h] of s.claims) {
    if (h.lapsed) continue;
    if (now + CLAIM_RENEW_MS >= h.leaseUntil) lapse(claim, "claim.unrenewed");
    else byDb.set(h.db, [...(byDb.get(h.db) ?? []), claim]);
  }
  if (s.renewing) return;
  s.renewing = true;
  try {
    for (const [db, claims] of byDb) {
      const sent = Date.now();
      try {
        const rows = await db.update(turnClaims).set({ leaseUntil: sent + CLAIM_LEASE_MS }).where(inArray(turnClaims.claim, claims)).returning({ claim: turnClaims.claim });
        const renewed = new Set(rows.map((r) => r.claim));
        for (const claim of claims) {
          const h = s.claims.get(claim);
          if (renewed.has(claim)) {
            if (h) h.leaseUntil = sent + CLAIM_LEASE_MS;
          } else lapse(claim, "claim.taken");
        }
      } catch {
        // The database does not answer: the next tick tries again, and lapses the claims whose lease it cannot keep.
      }
    }
  } finally {
    s.renewing = false;
  }
}

/**
 * Inside the transaction that writes a turn's results: true while the claim is still this turn's, and then its row
 * is held (an update locks it on PostgreSQL; SQLite's transaction holds the file) until the results are written, so
 * no other server takes the session between the check and the write.
 */
export async function fenceClaim(tx: Db, claim: string): Promise<boolean> {
  const rows = await tx.update(turnClaims).set({ leaseUntil: Date.now() + CLAIM_LEASE_MS }).where(eq(turnClaims.claim, claim)).returning({ claim: turnClaims.claim });
  return rows.length > 0;
}

/** This server's claims carry its id (server-id.ts); another life of the process on this host has another one. */
const HOST = os.hostname();

/**
 * A claim made on this host by a process that is gone (a server that crashed or restarted): its turn runs nowhere.
 * A claim of this very id that this process does not hold is one it lost track of. Claims of other hosts are left to
 * their lease: their liveness cannot be seen here. So is a claim of this host under this process's pid and another
 * tag: an earlier life of this server (a container restarted, pid 1 again) or, as likely, a live server of another
 * container sharing this host name and pid, whose turn must not be cut; the two look alike from here.
 */
function heldByTheDead(server: string, claim: string): boolean {
  if (held().claims.has(claim)) return false;
  if (server === SERVER_ID) return true;
  const at = serverIdParts(server);
  if (!at || at.host !== HOST || at.pid === process.pid) return false;
  try {
    process.kill(at.pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** Removes the session's claim when its holder is a process of this host that is gone; true when it did. */
async function dropDeadHolder(db: Db, sessionId: string): Promise<boolean> {
  const row = (await db.select({ claim: turnClaims.claim, server: turnClaims.server }).from(turnClaims).where(eq(turnClaims.sessionId, sessionId)).limit(1))[0];
  if (!row || !heldByTheDead(row.server, row.claim)) return false;
  const gone = await db.delete(turnClaims).where(eq(turnClaims.claim, row.claim)).returning({ claim: turnClaims.claim });
  return gone.length > 0;
}

/**
 * At start: drops the claims this host's earlier server processes left (their turns ended with them), so their
 * sessions take a Send at once instead of after the lease. Returns how many.
 */
export async function releaseEarlierClaims(db: Db): Promise<number> {
  // Every claim, one row per turn running anywhere: few, and filtered here rather than by a LIKE each dialect escapes its own way.
  const rows = await db.select({ claim: turnClaims.claim, server: turnClaims.server }).from(turnClaims);
  const dead = rows.filter((r) => heldByTheDead(r.server, r.claim)).map((r) => r.claim);
  if (!dead.length) return 0;
  return (await db.delete(turnClaims).where(inArray(turnClaims.claim, dead)).returning({ claim: turnClaims.claim })).length;
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
