import { authedProcedure, createTRPCRouter } from "../../trpc";
import { adminOverview } from "../../../services/overview";

// The overview page's one query: each part is read through the service that owns it, with the caller's rights.
export const overviewRouter = createTRPCRouter({
  get: authedProcedure.query(({ ctx }) => adminOverview(ctx.db, ctx.dataHome, ctx.audit, { id: ctx.user.id, email: ctx.user.email, role: ctx.user.role }, ctx.procedure)),
});
