// Tenants (issue #40): who belongs to which (membership.ts) and the check every door that takes a tenant makes (gate.ts).
export { setUserTenants, tenantsByUser } from "./membership";
export { requestTenant, tenantCaller, tokenTenantCeiling } from "./gate";
export { adminReach, assertGlobalAdmin, assertTokenInReach, assertUserInReach, skillsInReach, tokensInReach, usersInReach } from "./admin-reach";
