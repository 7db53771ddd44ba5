// Who sees what in the audit log is the audit service's rule; the routers only pass the session's user.
export { auditScopeOf as scopeFor } from "../../../services/audit/filter";
