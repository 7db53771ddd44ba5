// Who sees what in the audit log, decided on the server from the session's role: admins everything,
// authors only the events they caused. Viewers never reach these procedures (authorProcedure).
import type { SessionUser } from "../../../auth";
import type { AuditScope } from "../../../services/audit/filter";

export function scopeFor(user: SessionUser): AuditScope {
  return user.role === "admin" ? { kind: "all" } : { kind: "own", actorId: user.id };
}
