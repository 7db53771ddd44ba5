// The audit dashboard's procedures. Authors and admins only (viewers get FORBIDDEN from authorProcedure);
// the scope (own events vs all) is applied in the handlers from the session, never taken from the input.
import { adminProcedure, authorProcedure, createTRPCRouter } from "../../trpc";
import { checkpointsHandler } from "./checkpoints.handler";
import { getHandler, listHandler, violationsHandler } from "./list.handler";
import { ZAuditFilterInput, ZGetInput, ZListInput } from "./list.schema";
import { retentionHandler } from "./retention.handler";
import { summaryHandler } from "./summary.handler";
import { verifyHandler } from "./verify.handler";

export const auditRouter = createTRPCRouter({
  list: authorProcedure.input(ZListInput).query(listHandler),
  get: authorProcedure.input(ZGetInput).query(getHandler),
  summary: authorProcedure.input(ZAuditFilterInput).query(summaryHandler),
  violations: authorProcedure.input(ZListInput).query(violationsHandler),
  verify: adminProcedure.mutation(verifyHandler),
  checkpoints: adminProcedure.query(checkpointsHandler),
  retention: authorProcedure.query(retentionHandler),
});
