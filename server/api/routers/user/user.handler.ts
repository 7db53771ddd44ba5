import { TRPCError } from "@trpc/server";
import type { TRPCContext } from "../../trpc";
import { actorOf } from "../../trpc";
import type { SessionUser } from "../../../auth";
import { createUser, listUsers, signOutEverywhere, updateUser, UserError } from "../../../services/users/users";
import type { TCreateUserInput, TSignOutEverywhereInput, TUpdateUserInput } from "./user.schema";

type Ctx = TRPCContext & { user: SessionUser };

function asTRPC(e: unknown): never {
  if (e instanceof UserError) {
    const code = e.code === "NOT_FOUND" ? "NOT_FOUND" : e.code === "CONFLICT" ? "CONFLICT" : "BAD_REQUEST";
    throw new TRPCError({ code, message: e.message });
  }
  throw e;
}

export const listHandler = ({ ctx }: { ctx: Ctx }) => listUsers(ctx.db);

export async function createHandler({ ctx, input }: { ctx: Ctx; input: TCreateUserInput }) {
  try {
    return await createUser(ctx.db, input, { sink: ctx.audit, actor: actorOf(ctx.user) });
  } catch (e) {
    asTRPC(e);
  }
}

export function updateHandler({ ctx, input }: { ctx: Ctx; input: TUpdateUserInput }) {
  const { id, ...change } = input;
  try {
    return updateUser(ctx.db, id, change, { sink: ctx.audit, actor: actorOf(ctx.user) });
  } catch (e) {
    asTRPC(e);
  }
}

export function signOutEverywhereHandler({ ctx, input }: { ctx: Ctx; input: TSignOutEverywhereInput }) {
  try {
    return { sessionsEnded: signOutEverywhere(ctx.db, input.id, { sink: ctx.audit, actor: actorOf(ctx.user) }) };
  } catch (e) {
    asTRPC(e);
  }
}

export const meHandler = ({ ctx }: { ctx: Ctx }) => ctx.user;
