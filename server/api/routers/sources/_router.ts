import { createTRPCRouter, globalAdminProcedure } from "../../trpc";
import { noInput, procedures } from "../../procedures";
import * as h from "./sources.handler";
import * as S from "./sources.schema";

// Git sources feed the shared layers, which reach every tenant, and their listings name every skill they bring: every
// procedure is the global admin's (issue #40), checked on the server by globalAdminProcedure.
export const sourcesRouter = createTRPCRouter(
  procedures(globalAdminProcedure, h, {
    query: { list: S.ZListInput, reviews: noInput, publishState: noInput },
    mutation: { add: S.ZAddInput, update: S.ZUpdateInput, rollback: S.ZNameInput, remove: S.ZNameInput },
  }),
);
