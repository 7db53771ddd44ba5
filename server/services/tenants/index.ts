// Tenants (issue #40): who belongs to which (membership.ts), the check every door that takes a tenant makes (gate.ts),
// and what a tenant admin manages (admin-reach.ts).
export { setUserTenants, tenantsByUser } from "./membership";
export { requestTenant, tenantCaller, tokenTenantCeiling } from "./gate";
export { adminReach, assertTokenInReach, assertUserInReach, tokensInReach, usersInReach } from "./admin-reach";
