import type { AuthedContext } from "../../trpc";
import { actorOf } from "../../trpc";
import { createUser, listUsers, signOutEverywhere, updateUser } from "../../../services/users/users";
import type { TChangePasswordInput, TCreateUserInput, TUserIdInput, TUpdateUserInput } from "./user.schema";
import { changeOwnPassword, resetPassword } from "../../../services/users/passwords";

export const listHandler = ({ ctx }: { ctx: AuthedContext }) => listUsers(ctx.db);

export const createHandler = ({ ctx, input }: { ctx: AuthedContext; input: TCreateUserInput }) => createUser(ctx.db, input, { sink: ctx.audit, actor: actorOf(ctx.user) });

export function updateHandler({ ctx, input }: { ctx: AuthedContext; input: TUpdateUserInput }) {
  const { id, ...change } = input;
  return updateUser(ctx.db, id, change, { sink: ctx.audit, actor: actorOf(ctx.user) });
}

export function signOutEverywhereHandler({ ctx, input }: { ctx: AuthedContext; input: TUserIdInput }) {
  return { sessionsEnded: signOutEverywhere(ctx.db, input.id, { sink: ctx.audit, actor: actorOf(ctx.user) }) };
}

export const meHandler = ({ ctx }: { ctx: AuthedContext }) => ctx.user;

/** Everyone: their own password, the current one required; every other session of theirs ends. */
export const changePasswordHandler = ({ ctx, input }: { ctx: AuthedContext; input: TChangePasswordInput }) =>
  changeOwnPassword(ctx.db, { userId: ctx.user.id, current: input.current, next: input.next, ...(ctx.user.sid ? { keepSession: ctx.user.sid } : {}) }, { sink: ctx.audit, actor: actorOf(ctx.user) });

/** Admins: a one-time password for another user, returned once. */
export const resetPasswordHandler = ({ ctx, input }: { ctx: AuthedContext; input: TUserIdInput }) => resetPassword(ctx.db, input.id, { sink: ctx.audit, actor: actorOf(ctx.user) });
