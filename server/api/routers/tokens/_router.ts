import { actorOf, authedProcedure, createTRPCRouter } from "../../trpc";
import { createToken, listTokens, revokeToken } from "../../../services/tokens";
import { ZCreateTokenInput, ZListTokensInput, ZRevokeTokenInput } from "./tokens.schema";

// Access tokens. Every signed-in user manages their own; who may see or make anyone else's (and machine tokens)
// is the service's rule (administrators only), so the CLI and this router cannot disagree.
export const tokensRouter = createTRPCRouter({
  list: authedProcedure.input(ZListTokensInput).query(({ ctx, input }) => listTokens(ctx.db, ctx.user, { all: input?.all })),
  create: authedProcedure
    .input(ZCreateTokenInput)
    .mutation(({ ctx, input }) => createToken(ctx.db, ctx.user, input, { sink: ctx.audit, actor: actorOf(ctx.user) })),
  revoke: authedProcedure
    .input(ZRevokeTokenInput)
    .mutation(({ ctx, input }) => revokeToken(ctx.db, ctx.user, input.id, { sink: ctx.audit, actor: actorOf(ctx.user) })),
});

