import { allDefinitions, changePolicy, decideApproval, recentDecisions, syncApprovals, VENDOR_WORD_PATTERNS } from "../../../services/governance";
import { readStoredPolicy } from "../../../services/policy/store";
import { actorOf, type AuthedContext } from "../../trpc";
import type { TDecideInput, TPolicyChange } from "./policy.schema";


export const getHandler = ({ ctx }: { ctx: AuthedContext }) => ({ policy: readStoredPolicy(ctx.db), vendorWordPatterns: VENDOR_WORD_PATTERNS });

export const changeHandler = ({ ctx, input }: { ctx: AuthedContext; input: TPolicyChange }) =>
  changePolicy(ctx.db, input, { sink: ctx.audit, actor: actorOf(ctx.user) });

export const approvalsHandler = async ({ ctx }: { ctx: AuthedContext }) => {
  const items = syncApprovals(ctx.db, ctx.dataHome, await allDefinitions(ctx.dataHome, ctx.user.id));
  return { items, recent: recentDecisions(ctx.db, 30) };
};

export const decideHandler = ({ ctx, input }: { ctx: AuthedContext; input: TDecideInput }) =>
  decideApproval(ctx.db, input, { sink: ctx.audit, actor: actorOf(ctx.user) });
