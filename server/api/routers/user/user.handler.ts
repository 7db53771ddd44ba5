import type { AuthedContext } from "../../trpc";
import { actorOf } from "../../trpc";
import * as users from "../../../services/users/users";
import type { TChangePasswordInput, TCreateUserInput, TSetTenantsInput, TUserIdInput, TUpdateUserInput } from "./user.schema";
import { setUserTenants, tenantCaller, tenantsByUser } from "../../../services/tenants";
import * as passwords from "../../../services/users/passwords";

/** Every user with their tenants (issue #40). */
export async function list({ ctx }: { ctx: AuthedContext }) {
  const tenants = await tenantsByUser(ctx.db);
  return (await users.listUsers(ctx.db)).map((u) => ({ ...u, tenants: tenants.get(u.id) ?? [] }));
}

/** Admins: a user's tenants, replaced; a tenant admin assigns only their own tenants (the tenants service decides). */
export async function setTenants({ ctx, input }: { ctx: AuthedContext; input: TSetTenantsInput }) {
  const caller = await tenantCaller(ctx.db, ctx.user);
  return { tenants: await setUserTenants(ctx.db, input.id, input.tenants, { audit: ctx.audit, actor: actorOf(ctx.user), caller }) };
}

export const create = ({ ctx, input }: { ctx: AuthedContext; input: TCreateUserInput }) => users.createUser(ctx.db, input, { audit: ctx.audit, actor: actorOf(ctx.user) });

export function update({ ctx, input }: { ctx: AuthedContext; input: TUpdateUserInput }) {
  const { id, ...change } = input;
  return users.updateUser(ctx.db, id, change, { audit: ctx.audit, actor: actorOf(ctx.user) });
}

export async function signOutEverywhere({ ctx, input }: { ctx: AuthedContext; input: TUserIdInput }) {
  return { sessionsEnded: await users.signOutEverywhere(ctx.db, input.id, { audit: ctx.audit, actor: actorOf(ctx.user) }) };
}

/** Who is signed in, without the server-side session's id: the browser never gets it (auth.ts), only the cookie holds it. */
export const me = ({ ctx: { user } }: { ctx: AuthedContext }) => ({ id: user.id, email: user.email, name: user.name, role: user.role });

/** Everyone: their own password, the current one required; every other session of theirs ends. */
export const changePassword = ({ ctx, input }: { ctx: AuthedContext; input: TChangePasswordInput }) =>
  passwords.changeOwnPassword(ctx.db, { userId: ctx.user.id, current: input.current, next: input.next, ...(ctx.user.sid ? { keepSession: ctx.user.sid } : {}) }, { audit: ctx.audit, actor: actorOf(ctx.user) });

/** Admins: a one-time password for another user, returned once. */
export const resetPassword = ({ ctx, input }: { ctx: AuthedContext; input: TUserIdInput }) => passwords.resetPassword(ctx.db, input.id, { audit: ctx.audit, actor: actorOf(ctx.user) });
