// The audit dashboard's procedures. Authors and admins only (viewers get FORBIDDEN from authorProcedure);
// the scope (own events vs all) is applied in the handlers from the session, never taken from the input.
import { authorProcedure, createTRPCRouter, globalAdminProcedure } from "../../trpc";
import { noInput, procedures } from "../../procedures";
import { checkpoints } from "./checkpoints.handler";
import { get, list, violations } from "./list.handler";
import { ZAuditFilterInput, ZGetInput, ZListInput } from "./list.schema";
import { retention } from "./retention.handler";
import { summary } from "./summary.handler";
import { verify } from "./verify.handler";

const h = { list, get, summary, violations, retention, verify, checkpoints };

export const auditRouter = createTRPCRouter({
  ...procedures(authorProcedure, h, {
    query: {
      list: ZListInput,
      get: ZGetInput,
      summary: ZAuditFilterInput,
      violations: ZListInput,
      retention: noInput,
    },
  }),
  // Verifying the chain and the checkpoint key speak for everyone's events, every tenant's: the global admin.
  ...procedures(globalAdminProcedure, h, {
    query: { checkpoints: noInput },
    mutation: { verify: noInput },
  }),
});
