// tRPC: context and procedures by role. The session is injected (openstatus style) so routers can be called
// in tests with any user, and every role check happens here on the server; the UI only mirrors it.
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import type { Db } from "../../db/client";
import { hasRole, type Role } from "../../db/schema/users";
import type { SessionUser } from "../auth";
import type { AuditSink } from "../runtime/audit/events";
import type { DataHome } from "../config";
import { ServiceError, type ServiceErrorCode } from "../domain/errors";
import { inputErrorMessage } from "./input-errors";
import { soleTenant } from "../services/tenants/membership";
import { assertGlobalAdmin } from "../services/tenants/admin-reach";
import { transformer } from "./transformer";
import { databaseUnreachableMessage } from "../../db/dialect";
import { flushAudit } from "../services/audit/sink";

export interface TRPCContext {
  db: Db;
  dataHome: DataHome;
  audit: AuditSink;
  user: SessionUser | null;
  ip: string;
}

/** The context of every authed procedure (and of the handlers they call): the user is there, and which procedure it is. */
export type AuthedContext = TRPCContext & { user: SessionUser; procedure: string };

const t = initTRPC.context<TRPCContext>().create({
  transformer,
  errorFormatter({ shape, error }) {
    return {
      ...shape,
      data: {
        ...shape.data,
        details: error.cause instanceof ServiceError ? (error.cause.details ?? null) : null,
      },
    };
  },
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

const TRPC_CODE: Record<ServiceErrorCode, TRPCError["code"]> = {
  BAD_REQUEST: "BAD_REQUEST",
  UNAUTHORIZED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  CONFLICT: "CONFLICT",
  PRECONDITION_FAILED: "PRECONDITION_FAILED",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  TOO_MANY_REQUESTS: "TOO_MANY_REQUESTS",
  UNAVAILABLE: "SERVICE_UNAVAILABLE",
};

/**
 * The one way a ServiceError becomes an HTTP answer; a refused right is also audited as access_denied. A refused
 * input (the procedure's schema) gets its one plain line here too, so every page shows the same words.
 */
const serviceErrors = t.middleware(async ({ ctx, next, path }) => {
  const result = await next();
  if (result.ok) return result;
  if (result.error.code === "BAD_REQUEST" && result.error.cause instanceof ZodError) {
    throw new TRPCError({ code: "BAD_REQUEST", message: inputErrorMessage(result.error.cause), cause: result.error.cause });
  }
  if (!(result.error.cause instanceof ServiceError)) {
    // A database that stopped answering: one 503 with one plain line, whatever query met it.
    const unreachable = databaseUnreachableMessage(result.error.cause);
    if (unreachable) throw new TRPCError({ code: "SERVICE_UNAVAILABLE", message: unreachable, cause: result.error.cause });
    return result;
  }
  const e = result.error.cause;
  if (e.code === "FORBIDDEN") {
    // A tenant that is not the caller's (issue #40): the row carries it, so that tenant's admin reads the attempt.
    // Else the caller's own tenant when they have one only, as their other rows: a tenant admin reads their own
    // refusals. (This middleware runs outside the one that gives the audit sink that tenant.)
    const tenant = typeof e.details?.tenant === "string" ? e.details.tenant : ctx.user ? await soleTenant(ctx.db, ctx.user).catch(() => undefined) : undefined;
    ctx.audit.record({
      type: "access_denied",
      actor: ctx.user ? { id: ctx.user.id, email: ctx.user.email } : undefined,
      outcome: "refused",
      ...(tenant !== undefined ? { tenant } : {}),
      details: { procedure: path, ...(ctx.user ? { role: ctx.user.role } : {}), reason: e.message, ip: ctx.ip },
    });
  }
  throw new TRPCError({ code: TRPC_CODE[e.code], message: e.message, cause: e });
});

/**
 * A mutation answers once the audit rows it recorded (its change, or its refusal) are written. The writer batches
 * rows for 50 ms, longer while the database is busy, and a server killed in between lost the rows of changes it had
 * already acknowledged (the two-server bench's SIGKILL: 15 of 28 skills made lost their skill_saved row). Batching
 * stays: the requests of the same moment share one write. A write that fails is not the caller's failure: the
 * writer keeps the rows and retries.
 */
const auditBeforeAnswer = t.middleware(async ({ ctx, next, type }) => {
  const result = await next();
  if (type === "mutation") await flushAudit(ctx.db).catch(() => {});
  return result;
});

export const publicProcedure = t.procedure.use(auditBeforeAnswer).use(serviceErrors);

export const authedProcedure = publicProcedure.use(async ({ ctx, next, path }) => {
  if (!ctx.user) {
    throw new TRPCError({ code: "UNAUTHORIZED", message: `Sign in to use ${path}.` });
  }
  // A caller of exactly one tenant acts in it (issue #40): what they change (a skill saved, a policy) is on that
  // tenant's record, which its admin reads. A row that names its own tenant keeps it.
  const tenant = await soleTenant(ctx.db, ctx.user);
  const audit = tenant !== undefined ? withTenant(ctx.audit, tenant) : ctx.audit;
  // Services record which procedure read what (an administrator's review of a personal skill) without each handler naming itself.
  return next({ ctx: { ...ctx, audit, user: ctx.user, procedure: path } });
});

const withTenant = (audit: AuditSink, tenant: string): AuditSink => ({ record: (e) => audit.record({ ...e, tenant: e.tenant ?? tenant }) });

function requireRole(min: Role) {
  return authedProcedure.use(({ ctx, next, path }) => {
    if (!hasRole(ctx.user.role, min)) {
      ctx.audit.record({
        type: "access_denied",
        actor: { id: ctx.user.id, email: ctx.user.email },
        outcome: "refused",
        details: { procedure: path, role: ctx.user.role, required: min, ip: ctx.ip },
      });
      throw new TRPCError({ code: "FORBIDDEN", message: `${path} needs the ${min} role; you are ${ctx.user.role}.` });
    }
    return next();
  });
}

export const authorProcedure = requireRole("author");
export const adminProcedure = requireRole("admin");

/**
 * The global admin's (an admin of no tenant, issue #40): what is the whole console's and reaches every tenant, such
 * as changing the policy and git sources. A tenant admin is refused with FORBIDDEN, audited like any refused right.
 */
export const globalAdminProcedure = adminProcedure.use(async ({ ctx, next, path }) => {
  await assertGlobalAdmin(ctx.db, ctx.user, path);
  return next();
});

export function actorOf(user: SessionUser) {
  return { id: user.id, email: user.email };
}
