import { createCallerFactory, createTRPCRouter } from "./trpc";
import { healthRouter } from "./routers/health/_router";
import { userRouter } from "./routers/user/_router";
import { skillRouter } from "./routers/skill/_router";
import { layersRouter } from "./routers/layers/_router";
import { policyRouter } from "./routers/policy/_router";
import { auditRouter } from "./routers/audit/_router";
import { playgroundRouter } from "./routers/playground/_router";
import { evalsRouter } from "./routers/evals/_router";
import { overviewRouter } from "./routers/overview/_router";
import { tokensRouter } from "./routers/tokens/_router";
import { doctorRouter } from "./routers/doctor/_router";
import { draftRouter } from "./routers/draft/_router";
import { sourcesRouter } from "./routers/sources/_router";

export const appRouter = createTRPCRouter({
  health: healthRouter,
  user: userRouter,
  skill: skillRouter,
  layers: layersRouter,
  policy: policyRouter,
  audit: auditRouter,
  playground: playgroundRouter,
  evals: evalsRouter,
  overview: overviewRouter,
  tokens: tokensRouter,
  doctor: doctorRouter,
  draft: draftRouter,
  sources: sourcesRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
