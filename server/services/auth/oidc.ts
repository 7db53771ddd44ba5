// A sign-in through the OpenID provider, once the provider's ID token has been checked (next-auth: state, PKCE,
// nonce, signature, issuer and audience). The person is found by issuer and subject, created on first sign-in,
// and their role is set from the mapped groups at every sign-in, so leaving the admins' group takes the role
// away at the next one (unless they are the last active administrator). The session is our server-side one, as a password sign-in's.
import { randomBytes, randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { userIdentities, users, type User } from "../../../db/schema";
import type { AuditSink } from "../../runtime/audit/events";
import { roleOfGroups, SIGN_IN_ERRORS, type RoleMap } from "../../domain/oidc";
import { hashPassword } from "../users/password";
import { inTransaction } from "../../../db/transaction";
import { activeAdminsOtherThan, findUserByEmail, findUserById, normaliseEmail, toPublic, type PublicUser } from "../users/users";
import { startSession } from "./sessions";
import { setUserTenants } from "../tenants/membership";
import { TENANTS_PER_USER_MAX, tenantName } from "../../domain/tenants";

export interface OidcIdentity {
  issuer: string;
  subject: string;
  email?: string;
  /** The provider's email_verified: only a verified email may join an existing console user. */
  emailVerified?: boolean;
  name?: string;
  groups: string[];
  /** The tenants claim's values when OMNIFORGE_OIDC_TENANTS_CLAIM is set; absent: the console keeps the user's. */
  tenants?: string[];
}

export type OidcSignInResult =
  | { ok: true; user: PublicUser; sid: string }
  | { ok: false; reason: "disabled" | "no_email" | "email_unverified"; message: string };

export async function oidcSignIn(db: Db, audit: AuditSink, who: OidcIdentity, roleMap: RoleMap, ip: string): Promise<OidcSignInResult> {
  const provider = { issuer: who.issuer, subject: who.subject, ip };
  const refuse = (reason: "disabled" | "no_email" | "email_unverified", actor: { id: string; email?: string }): OidcSignInResult => {
    audit.record({ type: "login_failed", actor, outcome: "refused", details: { reason, ...provider } });
    return { ok: false, reason, message: SIGN_IN_ERRORS[reason]! };
  };
  const email = who.email ? normaliseEmail(who.email).slice(0, 320) : undefined;
  // Without a role map the provider has no say on roles: new people are viewers, the console sets the rest.
  const role = roleMap.size > 0 ? roleOfGroups(who.groups, roleMap) : undefined;
  let user = await userOfIdentity(db, who.issuer, who.subject);
  if (!user) {
    if (!email) return refuse("no_email", { id: "anonymous" });
    const same = await findUserByEmail(db, email);
    if (same && who.emailVerified !== true) {
      // Joining an existing account on an unverified email would let anyone who can name that email take it over.
      return refuse("email_unverified", { id: same.id, email });
    }
    user = same ?? (await createFromProvider(db, audit, email, who.name ?? "", role ?? "viewer", provider));
    await db.insert(userIdentities).values({ issuer: who.issuer, subject: who.subject, userId: user.id });
  }
  if (user.disabled) return refuse("disabled", { id: user.id, email: user.email });
  user = await refresh(db, audit, user, { role, email, name: who.name }, provider);
  // The provider is the source of tenants too when its claim is configured: leaving a tenant there leaves it here.
  if (who.tenants) await setUserTenants(db, user.id, claimTenants(who.tenants), { audit, actor: { id: user.id, email: user.email }, via: "oidc" });
  audit.record({ type: "login", actor: { id: user.id, email: user.email }, outcome: "ok", details: { method: "oidc", ...provider } });
  return { ok: true, user: toPublic(user), sid: await startSession(db, user.id, ip) };
}

/** A claim's tenant names that follow the rule, the others dropped (a provider's group names are not ours to refuse). */
function claimTenants(raw: string[]): string[] {
  const ok = raw.flatMap((r) => {
    const n = tenantName(r);
    return n.ok ? [n.name] : [];
  });
  return [...new Set(ok)].slice(0, TENANTS_PER_USER_MAX);
}

async function userOfIdentity(db: Db, issuer: string, subject: string): Promise<User | undefined> {
  const link = (await db
    .select({ userId: userIdentities.userId })
    .from(userIdentities)
    .where(and(eq(userIdentities.issuer, issuer), eq(userIdentities.subject, subject))).limit(1))[0];
  return link ? (await findUserById(db, link.userId)) : undefined;
}

async function createFromProvider(db: Db, audit: AuditSink, email: string, name: string, role: User["role"], provider: object): Promise<User> {
  const id = randomUUID();
  // A password nobody knows: the user signs in through the provider (an administrator may set one later).
  const passwordHash = await hashPassword(randomBytes(32).toString("base64url"));
  await db.insert(users).values({ id, email, name: name.trim().slice(0, 200), role, passwordHash });
  audit.record({ type: "user_created", actor: { id, email }, outcome: "ok", details: { userId: id, email, role, method: "oidc", ...provider } });
  return (await findUserById(db, id))!;
}

/** Why the last active administrator keeps the role the provider's groups no longer give (audited at sign-in). */
export const LAST_ADMIN_KEPT =
  "The identity provider's groups no longer make this person an administrator, but they are the console's last active administrator: the role stays until another administrator exists (add one, then sign in again).";

/**
 * The provider is the source of a person's role, and of their email and name when they change there. One
 * exception, as on the users page: the last active administrator is not demoted, so a group renamed or emptied at
 * the provider cannot leave the console without anyone who can act; the refusal is audited with its reason.
 */
async function refresh(db: Db, audit: AuditSink, before: User, from: { role?: User["role"]; email?: string; name?: string }, provider: object): Promise<User> {
  const change: Partial<User> = {};
  if (from.role && from.role !== before.role) change.role = from.role;
  // A new email is taken only when no other console user has it (emails stay unique).
  if (from.email && from.email !== before.email && !(await findUserByEmail(db, from.email))) change.email = from.email;
  const name = from.name?.trim().slice(0, 200);
  if (name && name !== before.name) change.name = name;
  let kept = false;
  // Checked and written in one transaction, so two last admins signing in at once cannot both be demoted.
  await inTransaction(db, async (tx) => {
    if (change.role && before.role === "admin" && !before.disabled && (await activeAdminsOtherThan(tx, before.id)) === 0) {
      delete change.role;
      kept = true;
    }
    if (Object.keys(change).length) await tx.update(users).set({ ...change, updatedAt: new Date() }).where(eq(users.id, before.id));
  });
  if (kept) {
    audit.record({
      type: "user_updated",
      actor: { id: before.id, email: before.email },
      outcome: "refused",
      details: { userId: before.id, email: before.email, method: "oidc", ...provider, rule: "last-admin", role: { kept: "admin", groupsGive: from.role }, reason: LAST_ADMIN_KEPT },
    });
  }
  if (Object.keys(change).length === 0) return before;
  const after = (await findUserById(db, before.id))!;
  audit.record({
    type: "user_updated",
    actor: { id: after.id, email: after.email },
    outcome: "ok",
    details: {
      userId: after.id,
      email: after.email,
      method: "oidc",
      ...provider,
      before: { role: before.role, email: before.email, name: before.name },
      after: { role: after.role, email: after.email, name: after.name },
    },
  });
  return after;
}
