// The session check of the plain route handlers (the audit downloads): no session is a 401, a role below
// the one required is a 403 that is written to the audit as access_denied, like a refused tRPC call, on the
// record of the person's tenant.
import type { Db } from "../../db/client";
import { getSessionUser, requestIp, type SessionUser } from "../auth";
import { hasRole, type Role } from "../domain/vocabulary";
import { auditSinkFor } from "../services/audit/sink";
import { soleTenant } from "../services/tenants/membership";

export const textResponse = (status: number, message: string) =>
  new Response(message + "\n", { status, headers: { "content-type": "text/plain; charset=utf-8" } });

export interface RouteGuard {
  route: string;
  required: Role;
  /** What the route does, for the messages: "export audit events" and "Exporting audit events". */
  toDo: string;
  doing: string;
}

/** The signed-in user when their role is at least `required`, else the refusal to return. */
export async function requireRole(db: Db, guard: RouteGuard): Promise<SessionUser | Response> {
  const user = await getSessionUser();
  if (!user) return textResponse(401, `Sign in to ${guard.toDo}.`);
  if (hasRole(user.role, guard.required)) return user;
  return refuseRole(db, user, guard, await requestIp());
}

/**
 * The 403 of a role below the route's, audited as access_denied. The row carries the person's tenant when they have
 * one only, as a refused tRPC call's does (server/api/trpc.ts), so their tenant's admin reads the attempt.
 */
export async function refuseRole(db: Db, user: SessionUser, { route, required, doing }: RouteGuard, ip: string): Promise<Response> {
  const tenant = await soleTenant(db, user).catch(() => undefined);
  auditSinkFor(db).record({
    type: "access_denied",
    actor: { id: user.id, email: user.email },
    outcome: "refused",
    ...(tenant !== undefined ? { tenant } : {}),
    details: { route, role: user.role, required, ip },
  });
  return textResponse(403, `${doing} needs the ${required} role; you are ${user.role}.`);
}
