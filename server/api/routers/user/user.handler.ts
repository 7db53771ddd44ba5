import type { AuthedContext } from "../../trpc";
import { actorOf } from "../../trpc";
import { createUser, listUsers, signOutEverywhere, updateUser } from "../../../services/users/users";
import type { TCreateUserInput, TSignOutEverywhereInput, TUpdateUserInput } from "./user.schema";


export const listHandler = ({ ctx }: { ctx: AuthedContext }) => listUsers(ctx.db);

export const createHandler = ({ ctx, input }: { ctx: AuthedContext; input: TCreateUserInput }) => createUser(ctx.db, input, { sink: ctx.audit, actor: actorOf(ctx.user) });

export function updateHandler({ ctx, input }: { ctx: AuthedContext; input: TUpdateUserInput }) {
  const { id, ...change } = input;
  return updateUser(ctx.db, id, change, { sink: ctx.audit, actor: actorOf(ctx.user) });
}

export function signOutEverywhereHandler({ ctx, input }: { ctx: AuthedContext; input: TSignOutEverywhereInput }) {
  return { sessionsEnded: signOutEverywhere(ctx.db, input.id, { sink: ctx.audit, actor: actorOf(ctx.user) }) };
}

export const meHandler = ({ ctx }: { ctx: AuthedContext }) => ctx.user;
