import { adminProcedure, createTRPCRouter } from "../../trpc";
import { noInput, procedures } from "../../procedures";
import * as h from "./sources.handler";
import * as S from "./sources.schema";

// Git sources feed the shared layers, so every procedure is admin-only, checked on the server by adminProcedure.
export const sourcesRouter = createTRPCRouter(
  procedures(adminProcedure, h, {
    query: { list: S.ZListInput, reviews: noInput, publishState: noInput },
    mutation: { add: S.ZAddInput, update: S.ZUpdateInput, rollback: S.ZNameInput, remove: S.ZNameInput },
  }),
);
