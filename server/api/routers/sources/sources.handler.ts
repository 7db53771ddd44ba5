import { pendingSourceReviews, publishState as publishStateOf, sourceAdd, sourceList, sourceRemove, sourceRollback, sourceUpdate } from "../../../services/sources";
import { actorOf, type AuthedContext } from "../../trpc";
import type { TAddInput, TListInput, TNameInput, TUpdateInput } from "./sources.schema";

const by = (ctx: AuthedContext) => ({ audit: ctx.audit, actor: actorOf(ctx.user) });

export const list = ({ ctx, input }: { ctx: AuthedContext; input: TListInput }) => sourceList(ctx.dataHome, { remote: input.remote });

export const add = ({ ctx, input }: { ctx: AuthedContext; input: TAddInput }) =>
  sourceAdd(ctx.dataHome, { name: input.name, url: input.url, ref: input.ref || undefined, path: input.path || undefined, layer: input.layer }, by(ctx));

export const update = ({ ctx, input }: { ctx: AuthedContext; input: TUpdateInput }) =>
  sourceUpdate(ctx.db, ctx.dataHome, input.name, { to: input.to || undefined, force: input.force }, by(ctx));

export const rollback = ({ ctx, input }: { ctx: AuthedContext; input: TNameInput }) => sourceRollback(ctx.dataHome, input.name, by(ctx));

export const remove = ({ ctx, input }: { ctx: AuthedContext; input: TNameInput }) => sourceRemove(ctx.dataHome, input.name, by(ctx));

/** Source updates waiting for approval, each change with its diff (decided through policy.decide). */
export const reviews = ({ ctx }: { ctx: AuthedContext }) => pendingSourceReviews(ctx.db, ctx.dataHome);

/** The last `omniforge publish marketplace` of this data home and what changed since. */
export const publishState = ({ ctx }: { ctx: AuthedContext }) => publishStateOf(ctx.db, ctx.dataHome);
