// The session check of the plain route handlers (the audit downloads): no session is a 401, a role below
// the one required is a 403 that is written to the audit as access_denied, like a refused tRPC call.
import type { Db } from "../../db/client";
import { getSessionUser, requestIp, type SessionUser } from "../auth";
import { hasRole, type Role } from "../domain/vocabulary";
import { auditSinkFor } from "../services/audit/sink";

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
export async function requireRole(db: Db, { route, required, toDo, doing }: RouteGuard): Promise<SessionUser | Response> {
  const user = await getSessionUser();
  if (!user) return textResponse(401, `Sign in to ${toDo}.`);
  if (hasRole(user.role, required)) return user;
  auditSinkFor(db).record({
    type: "access_denied",
    actor: { id: user.id, email: user.email },
    outcome: "refused",
    details: { route, role: user.role, required, ip: await requestIp() },
  });
  return textResponse(403, `${doing} needs the ${required} role; you are ${user.role}.`);
}
