import { TRPCError } from "@trpc/server";
import type { AuthedContext } from "../../trpc";
import { getEvent, listEvents, violations as violationEvents } from "../../../services/audit/queries";
import { resolveUserFilter } from "../../../services/audit/resolve";
import { scopeFor } from "./scope";
import type { TGetInput, TListInput } from "./list.schema";

async function split(ctx: AuthedContext, input: TListInput) {
  const { cursor, limit, ...filter } = input;
  return { filter: await resolveUserFilter(ctx.db, filter), page: { cursor, limit } };
}

/** One page of events, newest first. */
export async function list({ ctx, input }: { ctx: AuthedContext; input: TListInput }) {
  const { filter, page } = await split(ctx, input);
  return listEvents(ctx.db, filter, await scopeFor(ctx.db, ctx.user), page);
}

/** Refused tool calls and blocked script reads, newest first, each with its session. */
export async function violations({ ctx, input }: { ctx: AuthedContext; input: TListInput }) {
  const { filter, page } = await split(ctx, input);
  return violationEvents(ctx.db, filter, await scopeFor(ctx.db, ctx.user), page);
}

/** One event with all its details (an author asking for someone else's event gets NOT_FOUND). */
export async function get({ ctx, input }: { ctx: AuthedContext; input: TGetInput }) {
  const e = await getEvent(ctx.db, input.id, await scopeFor(ctx.db, ctx.user));
  if (!e) throw new TRPCError({ code: "NOT_FOUND", message: `No audit event ${input.id} that you may see.` });
  return e;
}
