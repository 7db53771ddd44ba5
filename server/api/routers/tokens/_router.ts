import { actorOf, authedProcedure, createTRPCRouter } from "../../trpc";
import { deploymentsOf, lastSyncByToken } from "../../../services/catalog-api";
import { createToken, listTokens, revokeToken } from "../../../services/tokens";
import { assertTokenInReach, assertUserInReach, tokenTenantCeiling, tokensInReach } from "../../../services/tenants";
import { signInWays } from "../../../services/users/sign-in-ways";
import { ZCreateTokenInput, ZDeploymentsInput, ZListTokensInput, ZRevokeTokenInput } from "./tokens.schema";

// Access tokens. Every signed-in user manages their own; who may see or make anyone else's (and machine tokens)
// is the service's rule (administrators only), so the CLI and this router cannot disagree.
export const tokensRouter = createTRPCRouter({
  list: authedProcedure.input(ZListTokensInput).query(async ({ ctx, input }) => {
    // A tenant admin's "all" is the tokens of the users they manage and machine tokens of their tenants only.
    const mine = await tokensInReach(ctx.db, ctx.user);
    const tokens = (await listTokens(ctx.db, ctx.user, { all: input?.all })).filter(mine);
    const last = await lastSyncByToken(ctx.db, tokens.map((t) => t.id));
    // Whose token is whose, whichever way its owner signs in (null: a machine token).
    const way = await signInWays(ctx.db, tokens.flatMap((t) => (t.userId ? [t.userId] : [])));
    return tokens.map((t) => ({ ...t, lastSyncAt: last.get(t.id) ?? null, ownerSignIn: way(t.userId) }));
  }),
  /**
   * Where a skill is deployed (what `omniforge sync` reported): administrators see every machine, others their own; a
   * tenant admin the machines of the tokens they manage.
   */
  deployments: authedProcedure.input(ZDeploymentsInput).query(async ({ ctx, input }) => {
    const rows = await deploymentsOf(ctx.db, ctx.user, input.name);
    if (ctx.user.role !== "admin") return rows;
    const mine = await tokensInReach(ctx.db, ctx.user);
    const managed = new Set((await listTokens(ctx.db, ctx.user, { all: true })).filter(mine).map((t) => t.id));
    return rows.filter((r) => managed.has(r.tokenId));
  }),
  create: authedProcedure
    .input(ZCreateTokenInput)
    .mutation(async ({ ctx, input }) => {
      if (input.forUserId && input.forUserId !== "machine" && input.forUserId !== ctx.user.id) await assertUserInReach(ctx.db, ctx.user, input.forUserId);
      const ceiling = await tokenTenantCeiling(ctx.db, ctx.user, input.forUserId ?? ctx.user.id);
      return createToken(ctx.db, ctx.user, input, { audit: ctx.audit, actor: actorOf(ctx.user) }, new Date(), ceiling);
    }),
  revoke: authedProcedure
    .input(ZRevokeTokenInput)
    .mutation(async ({ ctx, input }) => {
      // A tenant admin revokes only the tokens they list (the service keeps a non-admin to their own).
      const target = ctx.user.role === "admin" ? (await listTokens(ctx.db, ctx.user, { all: true })).find((t) => t.id === input.id) : undefined;
      if (target) await assertTokenInReach(ctx.db, ctx.user, target);
      return revokeToken(ctx.db, ctx.user, input.id, { audit: ctx.audit, actor: actorOf(ctx.user) });
    }),
});

