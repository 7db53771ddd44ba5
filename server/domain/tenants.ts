// Tenant names (issue #40). A tenant is the word a skill's `scope.tenants` lists, so a name follows the rule the
// console's scope fields already apply to environment, agent and tenant (trimmed, at most 128 characters), plus
// what a stored membership needs: not empty, no control characters.

export const TENANT_NAME_MAX = 128;
/** How many tenants one user or token may belong to: a membership, not a data set. */
export const TENANTS_PER_USER_MAX = 100;

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** The name as stored, or why it is refused. */
export function tenantName(raw: string): { ok: true; name: string } | { ok: false; reason: string } {
  const name = raw.trim();
  if (!name) return { ok: false, reason: "a tenant name cannot be empty" };
  if (name.length > TENANT_NAME_MAX) return { ok: false, reason: `a tenant name has at most ${TENANT_NAME_MAX} characters` };
  if (CONTROL.test(name)) return { ok: false, reason: "a tenant name cannot hold control characters" };
  return { ok: true, name };
}

/**
 * Who a caller is as far as tenants go. An admin with no tenants is the global admin (every tenant); anyone else,
 * an admin with tenants included (the tenant admin), is limited to their own.
 */
export interface TenantCaller {
  role: string;
  tenants: readonly string[];
}

export const isGlobalAdmin = (c: TenantCaller) => c.role === "admin" && c.tenants.length === 0;

/** Which tenants' scoped skills and audit rows a caller may see: "all" for the global admin. */
export const visibleTenants = (c: TenantCaller): readonly string[] | "all" => (isGlobalAdmin(c) ? "all" : c.tenants);

/**
 * Whether someone of `theirs` is within what a caller seeing `mine` manages: the global admin ("all") everyone; a
 * tenant admin only someone with at least one tenant, all of them the admin's (someone of no tenant is the global
 * admin's, and someone also of another tenant is that tenant's as much as theirs).
 */
export const withinTenants = (mine: readonly string[] | "all", theirs: readonly string[]): boolean =>
  mine === "all" || (theirs.length > 0 && theirs.every((t) => mine.includes(t)));
