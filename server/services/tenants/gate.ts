// A request's tenant must be one of its caller's (issue #40). Every door that takes a tenant (playground session,
// trigger tests, the layers what-if, the catalog API, search and lists through resolutionFor) asks here.
import type { Db } from "../../../db/client";
import { isGlobalAdmin, visibleTenants, type TenantCaller } from "../../domain/tenants";
import { callerTenants, TenantError, tenantsOf } from "./membership";

/** A caller as the gate sees them; `tenants` given (an access token's, fixed at creation) or read from the user's. */
export async function tenantCaller(db: Db, who: { id: string; role: string; tenants?: readonly string[] }): Promise<TenantCaller> {
  return { role: who.role, tenants: await callerTenants(db, who) };
}

/**
 * The tenant a request acts for: the one it names, when it is the caller's (the global admin may name any); with
 * none named, the caller's only tenant when they have exactly one. Another tenant is FORBIDDEN, with the tenant in
 * the details so the refusal's audit row carries it.
 */
export function requestTenant(caller: TenantCaller, requested: string | undefined): string | undefined {
  const named = requested?.trim() || undefined;
  if (named === undefined) return caller.tenants.length === 1 ? caller.tenants[0] : undefined;
  if (isGlobalAdmin(caller) || caller.tenants.includes(named)) return named;
  throw new TenantError(
    "FORBIDDEN",
    `tenant "${named.slice(0, 64)}" is not one of yours${caller.tenants.length ? ` (yours: ${caller.tenants.join(", ")})` : " (you belong to no tenant)"}`,
    { code: "tenant.not-yours", tenant: named.slice(0, 128) },
  );
}

/**
 * The tenants a new token may act for: its owner's, and no more than the creator's own (a tenant admin making a
 * token for someone); a machine token's, the creator's ("all" for the global admin).
 */
export async function tokenTenantCeiling(db: Db, creator: { id: string; role: string }, forUserId: string): Promise<readonly string[] | "all"> {
  const mine = visibleTenants(await tenantCaller(db, creator));
  if (forUserId === "machine" || forUserId === creator.id) return mine;
  const theirs = await tenantsOf(db, forUserId);
  return mine === "all" ? theirs : theirs.filter((t) => mine.includes(t));
}
