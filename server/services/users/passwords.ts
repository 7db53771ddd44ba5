// Changing one's own password (the current one required, the creation rule for the new one, every other session
// ended) and an administrator's reset (a one-time password shown once, every session of that user ended). Audited;
// no password ever reaches the audit or a log.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { users } from "../../../db/schema";
import type { Audited } from "../../runtime/audit/events";
import { endUserSessions } from "../auth/sessions";
import { generatePassword, hashPassword, verifyPassword } from "./password";
import { findUserById, UserError } from "./users";

/** The rule a new password follows, the same as when an account is created (user.schema.ts). */
export const MIN_PASSWORD_CHARS = 8;

async function store(db: Db, id: string, password: string): Promise<void> {
  await db.update(users).set({ passwordHash: await hashPassword(password), updatedAt: new Date() }).where(eq(users.id, id));
}

export async function changeOwnPassword(
  db: Db,
  input: { userId: string; current: string; next: string; keepSession?: string },
  by: Audited,
): Promise<{ sessionsEnded: number }> {
  const user = await findUserById(db, input.userId);
  if (!user) throw new UserError("NOT_FOUND", "No such user.");
  if (!(await verifyPassword(input.current, user.passwordHash))) {
    by.audit.record({ type: "password_changed", actor: by.actor, outcome: "refused", details: { userId: user.id, reason: "wrong current password" } });
    throw new UserError("BAD_REQUEST", "The current password is not right; nothing changed.");
  }
  if (input.next.length < MIN_PASSWORD_CHARS) throw new UserError("BAD_REQUEST", `Passwords need at least ${MIN_PASSWORD_CHARS} characters.`);
  if (input.next === input.current) throw new UserError("BAD_REQUEST", "The new password is the same as the current one.");
  await store(db, user.id, input.next);
  const ended = await endUserSessions(db, user.id, "password_changed", new Date(), input.keepSession);
  by.audit.record({ type: "password_changed", actor: by.actor, outcome: "ok", details: { userId: user.id, email: user.email, otherSessionsEnded: ended } });
  return { sessionsEnded: ended };
}

/** An administrator's reset: returns the one-time password (shown once, never stored in clear). */
export async function resetPassword(db: Db, id: string, by: Audited): Promise<{ password: string; sessionsEnded: number }> {
  const user = await findUserById(db, id);
  if (!user) throw new UserError("NOT_FOUND", "No such user.");
  if (id === by.actor.id) throw new UserError("BAD_REQUEST", "Change your own password on your account page (it asks for the current one).");
  const password = generatePassword(16);
  await store(db, id, password);
  const ended = await endUserSessions(db, id, "password_reset");
  by.audit.record({ type: "password_reset", actor: by.actor, outcome: "ok", details: { userId: id, email: user.email, sessionsEnded: ended } });
  return { password, sessionsEnded: ended };
}
