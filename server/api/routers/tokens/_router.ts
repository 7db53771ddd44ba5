import { actorOf, authedProcedure, createTRPCRouter } from "../../trpc";
import { deploymentsOf, lastSyncByToken } from "../../../services/catalog-api";
import { createToken, listTokens, revokeToken } from "../../../services/tokens";
import { tokenTenantCeiling } from "../../../services/tenants";
import { ZCreateTokenInput, ZDeploymentsInput, ZListTokensInput, ZRevokeTokenInput } from "./tokens.schema";

// Access tokens. Every signed-in user manages their own; who may see or make anyone else's (and machine tokens)
// is the service's rule (administrators only), so the CLI and this router cannot disagree.
export const tokensRouter = createTRPCRouter({
  list: authedProcedure.input(ZListTokensInput).query(async ({ ctx, input }) => {
    const tokens = await listTokens(ctx.db, ctx.user, { all: input?.all });
    const last = await lastSyncByToken(ctx.db, tokens.map((t) => t.id));
    return tokens.map((t) => ({ ...t, lastSyncAt: last.get(t.id) ?? null }));
  }),
  /** Where a skill is deployed (what `omniforge sync` reported): administrators see every machine, others their own. */
  deployments: authedProcedure.input(ZDeploymentsInput).query(({ ctx, input }) => deploymentsOf(ctx.db, ctx.user, input.name)),
  create: authedProcedure
    .input(ZCreateTokenInput)
    .mutation(async ({ ctx, input }) => {
      const ceiling = await tokenTenantCeiling(ctx.db, ctx.user, input.forUserId ?? ctx.user.id);
      return createToken(ctx.db, ctx.user, input, { audit: ctx.audit, actor: actorOf(ctx.user) }, new Date(), ceiling);
    }),
  revoke: authedProcedure
    .input(ZRevokeTokenInput)
    .mutation(({ ctx, input }) => revokeToken(ctx.db, ctx.user, input.id, { audit: ctx.audit, actor: actorOf(ctx.user) })),
});

