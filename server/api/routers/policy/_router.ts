import { adminProcedure, createTRPCRouter, globalAdminProcedure } from "../../trpc";
import { noInput, procedures } from "../../procedures";
import * as h from "./policy.handler";
import * as S from "./policy.schema";

// Everything here is admin-only, checked on the server. The policy is the whole console's: a tenant admin reads it,
// the global admin changes it (and previews a change); approvals are each admin's within their reach (issue #40).
export const policyRouter = createTRPCRouter({
  ...procedures(adminProcedure, h, {
    query: { get: noInput, approvals: noInput, review: S.ZReviewInput },
    mutation: { decide: S.ZDecideInput },
  }),
  ...procedures(globalAdminProcedure, h, {
    query: { preview: S.ZPolicyChange },
    mutation: { change: S.ZPolicyChange },
  }),
});
