import { authedProcedure, createTRPCRouter } from "../../trpc";
import * as h from "./evals.handler";
import * as S from "./evals.schema";

// Trigger tests. Reading needs a session and the right to read the skill; saving a set needs the right to write
// the skill, running one the author role: both are decided by the services.
export const evalsRouter = createTRPCRouter({
  getSet: authedProcedure.input(S.ZRefInput).query(h.getSet),
  saveSet: authedProcedure.input(S.ZSaveSetInput).mutation(h.saveSet),
  parseSet: authedProcedure.input(S.ZParseSetInput).mutation(h.parseSet),
  providers: authedProcedure.query(h.providers),
  start: authedProcedure.input(S.ZStartInput).mutation(h.start),
  get: authedProcedure.input(S.ZRunInput).query(h.get),
  list: authedProcedure.input(S.ZRefInput).query(h.list),
  cancel: authedProcedure.input(S.ZRunInput).mutation(h.cancel),
  overview: authedProcedure.query(h.overview),
});
