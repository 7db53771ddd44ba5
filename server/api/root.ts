import { createCallerFactory, createTRPCRouter } from "./trpc";
import { healthRouter } from "./routers/health/_router";
import { userRouter } from "./routers/user/_router";

export const appRouter = createTRPCRouter({
  health: healthRouter,
  user: userRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
