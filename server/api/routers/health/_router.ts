import { createTRPCRouter, publicProcedure } from "../../trpc";
import { healthReport } from "../../../services/health";

export const healthRouter = createTRPCRouter({
  check: publicProcedure.query(({ ctx }) => healthReport(ctx.db)),
});
