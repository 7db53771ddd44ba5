// tRPC: context and procedures by role. The session is injected (openstatus style) so routers can be called
// in tests with any user, and every role check happens here on the server; the UI only mirrors it.
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { z, ZodError } from "zod";
import type { Db } from "../../db/client";
import { hasRole, type Role } from "../../db/schema/users";
import type { SessionUser } from "../auth";
import type { AuditSink } from "../runtime/audit/events";
import type { DataHome } from "../config";

export interface TRPCContext {
  db: Db;
  dataHome: DataHome;
  audit: AuditSink;
  user: SessionUser | null;
  ip: string;
}

export function createInnerTRPCContext(ctx: TRPCContext): TRPCContext {
  return ctx;
}

const t = initTRPC.context<TRPCContext>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    return {
      ...shape,
      data: {
        ...shape.data,
        zodError: error.cause instanceof ZodError ? z.flattenError(error.cause) : null,
      },
    };
  },
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

export const publicProcedure = t.procedure;

export const authedProcedure = t.procedure.use(({ ctx, next, path }) => {
  if (!ctx.user) {
    throw new TRPCError({ code: "UNAUTHORIZED", message: `Sign in to use ${path}.` });
  }
  return next({ ctx: { ...ctx, user: ctx.user } });
});


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

export function actorOf(user: SessionUser) {
  return { id: user.id, email: user.email };
}
