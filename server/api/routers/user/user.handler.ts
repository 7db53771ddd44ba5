import type { AuthedContext } from "../../trpc";
import { actorOf } from "../../trpc";
import * as users from "../../../services/users/users";
import type { TChangePasswordInput, TCreateUserInput, TSetTenantsInput, TUserIdInput, TUpdateUserInput } from "./user.schema";
import { adminReach, assertUserInReach, setUserTenants, tenantCaller, tenantsByUser, usersInReach } from "../../../services/tenants";
import * as passwords from "../../../services/users/passwords";
import { tenantsOf } from "../../../services/tenants/membership";
import { isGlobalAdmin } from "../../../domain/tenants";
import { signInWays } from "../../../services/users/sign-in-ways";

/** The users an admin manages (a tenant admin: those all of whose tenants are theirs, and themselves), with their tenants and how they sign in (issue #40). */
export async function list({ ctx }: { ctx: AuthedContext }) {
  const tenants = await tenantsByUser(ctx.db);
  const mine = await usersInReach(ctx.db, ctx.user);
  const way = await signInWays(ctx.db);
  return (await users.listUsers(ctx.db)).filter((u) => mine(u.id)).map((u) => ({ ...u, tenants: tenants.get(u.id) ?? [], signIn: way(u.id)! }));
}

/** Admins: a user's tenants, replaced; a tenant admin assigns only their own tenants (the tenants service decides). */
export async function setTenants({ ctx, input }: { ctx: AuthedContext; input: TSetTenantsInput }) {
  const caller = await tenantCaller(ctx.db, ctx.user);
  return { tenants: await setUserTenants(ctx.db, input.id, input.tenants, { audit: ctx.audit, actor: actorOf(ctx.user), caller }) };
}

/** A user made by a tenant admin belongs to the maker's tenants from the start, so it is one they manage. */
export async function create({ ctx, input }: { ctx: AuthedContext; input: TCreateUserInput }) {
  const reach = await adminReach(ctx.db, ctx.user);
  return users.createUser(ctx.db, { ...input, ...(reach === "all" ? {} : { tenants: reach }) }, { audit: ctx.audit, actor: actorOf(ctx.user) });
}

export async function update({ ctx, input }: { ctx: AuthedContext; input: TUpdateUserInput }) {
  const { id, ...change } = input;
  await assertUserInReach(ctx.db, ctx.user, id);
  return users.updateUser(ctx.db, id, change, { audit: ctx.audit, actor: actorOf(ctx.user) });
}

export async function signOutEverywhere({ ctx, input }: { ctx: AuthedContext; input: TUserIdInput }) {
  await assertUserInReach(ctx.db, ctx.user, input.id);
  return { sessionsEnded: await users.signOutEverywhere(ctx.db, input.id, { audit: ctx.audit, actor: actorOf(ctx.user) }) };
}

/** Who is signed in, without the server-side session's id: the browser never gets it (auth.ts), only the cookie holds it. */
export const me = async ({ ctx: { user, db } }: { ctx: AuthedContext }) => {
  const tenants = await tenantsOf(db, user.id);
  // The console's pages take the global admin's rights (the policy, sources) from here, never from a copy of the rule.
  return { id: user.id, email: user.email, name: user.name, role: user.role, tenants, globalAdmin: isGlobalAdmin({ role: user.role, tenants }) };
};

/** Everyone: their own password, the current one required; every other session of theirs ends. */
export const changePassword = ({ ctx, input }: { ctx: AuthedContext; input: TChangePasswordInput }) =>
  passwords.changeOwnPassword(ctx.db, { userId: ctx.user.id, current: input.current, next: input.next, ...(ctx.user.sid ? { keepSession: ctx.user.sid } : {}) }, { audit: ctx.audit, actor: actorOf(ctx.user) });

/** Admins: a one-time password for another user, returned once. */
export async function resetPassword({ ctx, input }: { ctx: AuthedContext; input: TUserIdInput }) {
  await assertUserInReach(ctx.db, ctx.user, input.id);
  return passwords.resetPassword(ctx.db, input.id, { audit: ctx.audit, actor: actorOf(ctx.user) });
}
