// Users and roles. The rules a person relies on live here, not in the UI: the last active admin can be
// neither demoted nor disabled, and emails are unique regardless of case.
import { randomUUID } from "node:crypto";
import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { inTransaction } from "../../../db/transaction";
import { userTenants, users, type Role, type User } from "../../../db/schema";
import type { Audited } from "../../runtime/audit/events";
import { serviceErrorClass } from "../../domain/errors";
import { endUserSessions } from "../auth/sessions";
import { hashPassword } from "./password";

/** The users service's ServiceError. Demoting or disabling the last active admin is a BAD_REQUEST with details.rule "last-admin". */
export const UserError = serviceErrorClass<"CONFLICT" | "NOT_FOUND" | "BAD_REQUEST">("UserError");
export type UserError = InstanceType<typeof UserError>;

export type PublicUser = Omit<User, "passwordHash">;

export function toPublic(u: User): PublicUser {
  const { passwordHash: _ignored, ...rest } = u;
  return rest;
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  return (await db.select().from(users).where(eq(users.email, normaliseEmail(email))).limit(1))[0];
}

export async function findUserById(db: Db, id: string): Promise<User | undefined> {
  return (await db.select().from(users).where(eq(users.id, id)).limit(1))[0];
}

export async function listUsers(db: Db): Promise<PublicUser[]> {
  return (await db.select().from(users).orderBy(users.createdAt)).map(toPublic);
}

export async function createUser(
  db: Db,
  input: { email: string; name?: string; role: Role; password: string; tenants?: readonly string[] },
  by?: Audited,
): Promise<PublicUser> {
  const tenants = [...(input.tenants ?? [])];
  const email = normaliseEmail(input.email);
  if (await findUserByEmail(db, email)) throw new UserError("CONFLICT", `A user with the email ${email} already exists.`);
  const row = {
    id: randomUUID(),
    email,
    name: input.name?.trim() ?? "",
    role: input.role,
    passwordHash: await hashPassword(input.password),
  };
  // The user and their tenants at once: an admin made by a tenant admin is never, even for a moment, of no tenant
  // (the global admin).
  await inTransaction(db, async (tx) => {
    await tx.insert(users).values(row);
    if (tenants.length) await tx.insert(userTenants).values(tenants.map((tenant) => ({ userId: row.id, tenant })));
  });
  by?.audit.record({ type: "user_created", actor: by.actor, outcome: "ok", details: { userId: row.id, email, role: row.role, ...(tenants.length ? { tenants } : {}) } });
  return toPublic((await findUserById(db, row.id))!);
}

export async function activeAdminsOtherThan(db: Db, id: string): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)` })
    .from(users)
    .where(and(eq(users.role, "admin"), eq(users.disabled, false), ne(users.id, id)));
  return Number(r?.n ?? 0);
}

export async function updateUser(
  db: Db,
  id: string,
  change: { role?: Role; disabled?: boolean; name?: string },
  by?: Audited,
): Promise<PublicUser> {
  const before = await findUserById(db, id);
  if (!before) throw new UserError("NOT_FOUND", "No such user.");
  const losesAdmin =
    before.role === "admin" && !before.disabled && ((change.role && change.role !== "admin") || change.disabled === true);
  // Nobody locks themselves out by mistake: another administrator disables or demotes an admin.
  if (by && by.actor.id === id && (change.disabled === true || (change.role && change.role !== before.role))) {
    throw new UserError("BAD_REQUEST", "You cannot disable yourself or change your own role; ask another administrator.", { rule: "self" });
  }
  let ended = 0;
  // Checked inside one transaction so two admins demoting each other at once cannot both succeed.
  await inTransaction(db, async (tx) => {
    if (losesAdmin && (await activeAdminsOtherThan(tx, id)) === 0) {
      throw new UserError("BAD_REQUEST", "This is the last active administrator: make another user admin before demoting or disabling this one.", { rule: "last-admin" });
    }
    await tx
      .update(users)
      .set({
        ...(change.role ? { role: change.role } : {}),
        ...(change.disabled !== undefined ? { disabled: change.disabled } : {}),
        ...(change.name !== undefined ? { name: change.name.trim() } : {}),
        updatedAt: new Date(),
      })
      .where(eq(users.id, id));
    // A disabled user's open sessions end with the change, not when their cookies expire.
    if (change.disabled === true) ended = await endUserSessions(tx, id, "user_disabled");
  });
  const after = (await findUserById(db, id))!;
  by?.audit.record({
    type: "user_updated",
    actor: by.actor,
    outcome: "ok",
    details: {
      userId: id,
      email: after.email,
      before: { role: before.role, disabled: before.disabled, name: before.name },
      after: { role: after.role, disabled: after.disabled, name: after.name },
    },
  });
  if (ended > 0) {
    by?.audit.record({ type: "sessions_revoked", actor: by.actor, outcome: "ok", details: { userId: id, email: after.email, sessions: ended, reason: "user_disabled" } });
  }
  return toPublic(after);
}

/** An administrator's "sign out everywhere": ends every open session of the user; returns how many. */
export async function signOutEverywhere(db: Db, id: string, by?: Audited): Promise<number> {
  const user = await findUserById(db, id);
  if (!user) throw new UserError("NOT_FOUND", "No such user.");
  const ended = await endUserSessions(db, id, "signed_out_everywhere");
  by?.audit.record({ type: "sessions_revoked", actor: by.actor, outcome: "ok", details: { userId: id, email: user.email, sessions: ended, reason: "signed_out_everywhere" } });
  return ended;
}

export async function setPassword(db: Db, id: string, password: string): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(password), updatedAt: new Date() })
    .where(eq(users.id, id));
}
