import { allDefinitions, changePolicy, decideApproval, recentDecisions, syncApprovals, VENDOR_WORD_PATTERNS } from "../../../services/governance";
import { readStoredPolicy } from "../../../services/policy/store";
import { actorOf, type TRPCContext } from "../../trpc";
import type { SessionUser } from "../../../auth";
import { guarded } from "../layers/errors";
import type { TDecideInput, TPolicyChange } from "./policy.schema";

type Ctx = TRPCContext & { user: SessionUser };

export const getHandler = ({ ctx }: { ctx: Ctx }) => ({ policy: readStoredPolicy(ctx.db), vendorWordPatterns: VENDOR_WORD_PATTERNS });

export const changeHandler = ({ ctx, input }: { ctx: Ctx; input: TPolicyChange }) =>
  guarded(() => changePolicy(ctx.db, input, { sink: ctx.audit, actor: actorOf(ctx.user) }));

export const approvalsHandler = ({ ctx }: { ctx: Ctx }) =>
  guarded(async () => {
    const items = syncApprovals(ctx.db, ctx.dataHome, await allDefinitions(ctx.dataHome, ctx.user.id));
    return { items, recent: recentDecisions(ctx.db, 30) };
  });

export const decideHandler = ({ ctx, input }: { ctx: Ctx; input: TDecideInput }) =>
  guarded(() => decideApproval(ctx.db, input, { sink: ctx.audit, actor: actorOf(ctx.user) }));
