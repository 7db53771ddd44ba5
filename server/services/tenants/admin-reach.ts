// What an admin of some tenants (a tenant admin, issue #40) reaches beyond skills and audit rows: the users whose
// tenants are all theirs, those users' tokens, approvals of skills scoped within their tenants. What is the whole
// console's (the policy, git sources, unscoped shared skills, users of no tenant) stays the global admin's. Every
// procedure of the admin role asks here, so the Users, Tokens, Policies and Sources pages cannot disagree.
import type { Db } from "../../../db/client";
import { visibleTenants, withinTenants } from "../../domain/tenants";
import { tenantCaller } from "./gate";
import { TenantError, tenantsByUser } from "./membership";

type Who = { id: string; role: string };

/** The tenants an admin manages: "all" for the global admin. */
export async function adminReach(db: Db, who: Who): Promise<readonly string[] | "all"> {
  return visibleTenants(await tenantCaller(db, who));
}

/** Who this admin manages: themselves and the users all of whose tenants are theirs (everyone for the global admin). */
export async function usersInReach(db: Db, who: Who): Promise<(userId: string) => boolean> {
  const reach = await adminReach(db, who);
  if (reach === "all") return () => true;
  const tenants = await tenantsByUser(db);
  return (userId) => userId === who.id || withinTenants(reach, tenants.get(userId) ?? []);
}

const outside = (reach: readonly string[] | "all", what: string) =>
  new TenantError(
    "FORBIDDEN",
    `${what} is outside your tenants (${reach === "all" ? "all" : reach.join(", ")}): only the global admin (an admin of no tenant) can do this`,
    { code: "tenant.outside-reach" },
  );

/** Refuses (FORBIDDEN, audited by the API) acting on a user this admin does not manage. */
export async function assertUserInReach(db: Db, who: Who, userId: string): Promise<void> {
  if (!(await usersInReach(db, who))(userId)) throw outside(await adminReach(db, who), "This user");
}

/** Refuses what only the global admin does (the policy, git sources): `what` (the procedure) names it in the refusal. */
export async function assertGlobalAdmin(db: Db, who: Who, what: string): Promise<void> {
  const reach = await adminReach(db, who);
  if (reach === "all") return;
  throw new TenantError("FORBIDDEN", `${what} is the global admin's (an admin of no tenant): it reaches every tenant, and you are an admin of ${reach.join(", ") || "no one"}`, {
    code: "tenant.global-admin-only",
  });
}

/** A token this admin manages: one of a user they manage, or a machine token all of whose tenants are theirs. */
export async function tokensInReach(db: Db, who: Who): Promise<(t: { userId: string | null; tenants: readonly string[] }) => boolean> {
  const reach = await adminReach(db, who);
  const user = await usersInReach(db, who);
  return (t) => (t.userId !== null ? user(t.userId) : withinTenants(reach, t.tenants));
}

/** Refuses (FORBIDDEN, audited) acting on a token this admin does not manage. */
export async function assertTokenInReach(db: Db, who: Who, token: { userId: string | null; tenants: readonly string[] }): Promise<void> {
  if (!(await tokensInReach(db, who))(token)) throw outside(await adminReach(db, who), "This token");
}

/**
 * A skill definition this admin may approve or reject: one scoped only to their tenants, or a personal skill of a user
 * they manage. An unscoped shared skill reaches every tenant, so deciding on it is the global admin's.
 */
export async function skillsInReach(db: Db, who: Who): Promise<(s: { scopeTenants: readonly string[] | undefined; personalOwner: string | null }) => boolean> {
  const reach = await adminReach(db, who);
  const user = await usersInReach(db, who);
  return (s) => (s.personalOwner !== null ? user(s.personalOwner) : withinTenants(reach, s.scopeTenants ?? []));
}
