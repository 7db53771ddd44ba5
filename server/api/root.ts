import { createCallerFactory, createTRPCRouter } from "./trpc";
import { healthRouter } from "./routers/health/_router";
import { userRouter } from "./routers/user/_router";
import { auditRouter } from "./routers/audit/_router";

export const appRouter = createTRPCRouter({
  health: healthRouter,
  user: userRouter,
  audit: auditRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
