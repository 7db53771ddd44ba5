import { adminProcedure, createTRPCRouter } from "../../trpc";
import { noInput, procedures } from "../../procedures";
import * as h from "./policy.handler";
import * as S from "./policy.schema";

// Everything here is admin-only, checked on the server by adminProcedure.
export const policyRouter = createTRPCRouter(
  procedures(adminProcedure, h, {
    query: { get: noInput, approvals: noInput, review: S.ZReviewInput, preview: S.ZPolicyChange },
    mutation: { change: S.ZPolicyChange, decide: S.ZDecideInput },
  }),
);
