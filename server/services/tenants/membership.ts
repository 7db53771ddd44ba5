// Which tenants a user belongs to (issue #40): set by an admin, or by the identity provider's claim at each
// sign-in. Every change is a `tenants_assigned` row with the tenants before and after.
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { userTenants, users } from "../../../db/schema";
import { inTransaction } from "../../../db/transaction";
import type { Audited } from "../../runtime/audit/events";
import { serviceErrorClass } from "../../domain/errors";
import { TENANTS_PER_USER_MAX, isGlobalAdmin, tenantName, type TenantCaller } from "../../domain/tenants";

/** The tenants service's ServiceError: a request naming another tenant is FORBIDDEN with details.tenant. */
export const TenantError = serviceErrorClass<"FORBIDDEN" | "BAD_REQUEST" | "NOT_FOUND">("TenantError");

export async function tenantsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db.select({ tenant: userTenants.tenant }).from(userTenants).where(eq(userTenants.userId, userId));
  return rows.map((r) => r.tenant).sort();
}

/**
 * A caller's tenants: those given with them (the request's session read them, an access token fixes its own), else
 * the user's as stored now.
 */
export async function callerTenants(db: Db, who: { id: string; tenants?: readonly string[] }): Promise<readonly string[]> {
  return who.tenants ?? (await tenantsOf(db, who.id));
}

/**
 * The tenant a person's audit rows carry when they do not name one: their only tenant, when they have exactly one.
 * Someone of several tenants acts for none of them in particular, so their rows carry none.
 */
export async function soleTenant(db: Db, who: { id: string; tenants?: readonly string[] }): Promise<string | undefined> {
  const tenants = await callerTenants(db, who);
  return tenants.length === 1 ? tenants[0] : undefined;
}

/** Every user's tenants at once (the Users page). */
export async function tenantsByUser(db: Db): Promise<Map<string, string[]>> {
  const rows = await db.select().from(userTenants).orderBy(userTenants.tenant);
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.userId, [...(out.get(r.userId) ?? []), r.tenant]);
  return out;
}

/** Names checked and stored as the rule says, duplicates dropped; a bad one refuses the whole list. */
export function tenantList(raw: readonly string[]): string[] {
  const out = new Set<string>();
  for (const r of raw) {
    const n = tenantName(r);
    if (!n.ok) throw new TenantError("BAD_REQUEST", `"${r.slice(0, 64)}": ${n.reason}.`, { code: "tenant.name-invalid" });
    out.add(n.name);
  }
  if (out.size > TENANTS_PER_USER_MAX) throw new TenantError("BAD_REQUEST", `at most ${TENANTS_PER_USER_MAX} tenants per user`, { code: "tenant.too-many" });
  return [...out].sort();
}

/**
 * Replaces a user's tenants. A tenant admin (an admin with tenants) assigns only their own tenants, and only to
 * users all of whose tenants are theirs; the global admin assigns any. `by.caller` absent: the identity provider.
 */
export async function setUserTenants(
  db: Db,
  userId: string,
  raw: readonly string[],
  by: Audited & { caller?: TenantCaller; via?: "admin" | "oidc" },
): Promise<string[]> {
  const next = tenantList(raw);
  const user = (await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId)).limit(1))[0];
  if (!user) throw new TenantError("NOT_FOUND", "No such user.");
  const result = await inTransaction(db, async (tx) => {
    const before = await tenantsOf(tx, userId);
    if (by.caller && !isGlobalAdmin(by.caller)) {
      const mine = new Set(by.caller.tenants);
      const foreign = [...before, ...next].find((t) => !mine.has(t));
      if (foreign !== undefined) {
        throw new TenantError("FORBIDDEN", `tenant "${foreign.slice(0, 64)}" is not one of yours: only the global admin (an admin with no tenants) assigns it`, { tenant: foreign });
      }
      // Someone of no tenant is the global admin's (an admin of none is the global admin): a tenant admin neither
      // claims them nor leaves anyone with none.
      if (before.length === 0 || next.length === 0) {
        throw new TenantError("FORBIDDEN", `${before.length === 0 ? "this user belongs to no tenant" : "a user you manage keeps at least one of your tenants"}: only the global admin (an admin with no tenants) changes that`, { code: "tenant.outside-reach" });
      }
    }
    const gone = before.filter((t) => !next.includes(t));
    const added = next.filter((t) => !before.includes(t));
    if (gone.length) await tx.delete(userTenants).where(and(eq(userTenants.userId, userId), inArray(userTenants.tenant, gone)));
    if (added.length) await tx.insert(userTenants).values(added.map((tenant) => ({ userId, tenant })));
    return { before, changed: gone.length + added.length > 0 };
  });
  if (result.changed) {
    by.audit.record({
      type: "tenants_assigned",
      actor: by.actor,
      outcome: "ok",
      details: { userId, email: user.email, before: result.before, after: next, via: by.via ?? "admin" },
    });
  }
  return next;
}
