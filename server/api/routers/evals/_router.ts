import { authedProcedure, createTRPCRouter } from "../../trpc";
import { noInput, procedures } from "../../procedures";
import * as h from "./evals.handler";
import * as S from "./evals.schema";

// Trigger tests. Reading needs a session and the right to read the skill; saving a set needs the right to write
// the skill, running one the author role: both are decided by the services.
export const evalsRouter = createTRPCRouter(
  procedures(authedProcedure, h, {
    query: {
      getSet: S.ZRefInput,
      providers: noInput,
      get: S.ZRunInput,
      list: S.ZRefInput,
      overview: noInput,
    },
    mutation: {
      saveSet: S.ZSaveSetInput,
      parseSet: S.ZParseSetInput,
      start: S.ZStartInput,
      cancel: S.ZRunInput,
      suggest: S.ZSuggestInput,
      applyDescription: S.ZApplyDescriptionInput,
    },
  }),
);
