export { TenantError, setUserTenants, tenantList, tenantsByUser, tenantsOf } from "./membership";
export { requestTenant, tenantCaller, tokenTenantCeiling } from "./gate";
