// Server-side session records behind the next-auth JWT (db/schema/auth-sessions.ts). A cookie is only as
// good as its row: open, not idle past SESSION_IDLE_MAX_MS, and its user enabled. Ending a row ends every
// copy of the cookie at once, which a JWT alone cannot do.
import { randomBytes } from "node:crypto";
import { and, eq, isNull, lt, ne, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { preparedQuery } from "../../../db/prepared";
import { authSessions, userTenants, users } from "../../../db/schema";
import { SESSION_IDLE_MAX_MS, SESSION_KEEP_ENDED_MS, SESSION_TOUCH_EVERY_MS } from "../../domain/limits";
import type { Role } from "../../domain/vocabulary";
import { noteStamp, stampColumns } from "../policy/request-stamp";

export type SessionEndReason = "sign_out" | "user_disabled" | "signed_out_everywhere" | "password_changed" | "password_reset";

export interface SessionUserRow {
  id: string;
  email: string;
  name: string;
  role: Role;
  /** The server-side session this request belongs to. */
  sid: string;
  /** The user's tenants (issue #40), sorted, read with the session: the request's doors need not ask again. */
  tenants: string[];
}

/** Opens a session for a user who just proved their password; returns its id for the token. */
export async function startSession(db: Db, userId: string, ip: string, now = new Date()): Promise<string> {
  const id = randomBytes(24).toString("base64url");
  // Rows of sessions long over are dropped as new ones start, so the table stays the size of recent use.
  await db
    .delete(authSessions)
    .where(lt(sql`coalesce(${authSessions.endedAt}, ${authSessions.lastSeenAt} + ${SESSION_IDLE_MAX_MS})`, now.getTime() - SESSION_KEEP_ENDED_MS));
  await db.insert(authSessions).values({ id, userId, ip: ip.slice(0, 64), createdAt: now, lastSeenAt: now });
  return id;
}

// Every request asks this: prepared once per connection. The user's tenants come in the same round trip (one row per
// tenant, at most TENANTS_PER_USER_MAX): the tenant middleware and most doors asked for them again, one query each.
// So does the policy's stamp, which the request's policy reads then use (policy/request-stamp.ts).
const sessionRow = preparedQuery((db) =>
  db
    .select({ s: authSessions, u: users, tenant: userTenants.tenant, ...stampColumns })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .leftJoin(userTenants, eq(userTenants.userId, authSessions.userId))
    .where(eq(authSessions.id, sql.placeholder("sid")))
    .prepare(),
);

/**
 * The user of an open session, with their current role, or null: no such session, ended, idle too long,
 * not this user's, or the user is disabled. Refreshes the last-seen time now and then.
 */
export async function sessionUser(db: Db, token: { userId?: string; sid?: string }, now = new Date()): Promise<SessionUserRow | null> {
  if (!token.userId || !token.sid) return null;
  const rows = await sessionRow(db).execute({ sid: token.sid });
  const row = rows[0];
  if (row) noteStamp({ value: row.policyValue, approved: String(row.approvedStamp) });
  if (!row || row.s.userId !== token.userId || row.s.endedAt || row.u.disabled) return null;
  const idle = now.getTime() - row.s.lastSeenAt.getTime();
  if (idle > SESSION_IDLE_MAX_MS) return null;
  if (idle > SESSION_TOUCH_EVERY_MS) await db.update(authSessions).set({ lastSeenAt: now }).where(eq(authSessions.id, token.sid));
  const tenants = rows.flatMap((r) => (r.tenant === null ? [] : [r.tenant])).sort();
  return { id: row.u.id, email: row.u.email, name: row.u.name, role: row.u.role, sid: token.sid, tenants };
}

/** Ends one session; false when it was not open. */
export async function endSession(db: Db, sid: string, reason: SessionEndReason, now = new Date()): Promise<boolean> {
  // Counted through returning: a run's changes is SQLite's alone.
  const ended = await db
    .update(authSessions)
    .set({ endedAt: now, endReason: reason })
    .where(and(eq(authSessions.id, sid), isNull(authSessions.endedAt)))
    .returning({ id: authSessions.id });
  return ended.length > 0;
}

/** Ends every open session of a user (but `keep`, the one making the change); returns how many were open. */
export async function endUserSessions(db: Db, userId: string, reason: SessionEndReason, now = new Date(), keep?: string): Promise<number> {
  const ended = await db
    .update(authSessions)
    .set({ endedAt: now, endReason: reason })
    .where(and(eq(authSessions.userId, userId), isNull(authSessions.endedAt), ...(keep ? [ne(authSessions.id, keep)] : [])))
    .returning({ id: authSessions.id });
  return ended.length;
}

/** The user an open session belongs to (for auditing a sign-out). */
export async function sessionOwner(db: Db, sid: string): Promise<{ id: string; email: string } | null> {
  const [row] = await db
    .select({ id: users.id, email: users.email })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .where(eq(authSessions.id, sid))
    .limit(1);
  return row ?? null;
}
