import { adminProcedure, createTRPCRouter } from "../../trpc";
import { approvalsHandler, changeHandler, decideHandler, getHandler } from "./policy.handler";
import { ZDecideInput, ZPolicyChange } from "./policy.schema";

// Everything here is admin-only, checked on the server by adminProcedure.
export const policyRouter = createTRPCRouter({
  get: adminProcedure.query(getHandler),
  change: adminProcedure.input(ZPolicyChange).mutation(changeHandler),
  approvals: adminProcedure.query(approvalsHandler),
  decide: adminProcedure.input(ZDecideInput).mutation(decideHandler),
});
