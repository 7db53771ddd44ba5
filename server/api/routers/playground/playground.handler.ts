// Thin handlers over the playground service: the service decides (ownership, one turn at a time), these map
// its errors to tRPC codes. Viewers are kept out of every write by authorProcedure in the router.
import { TRPCError } from "@trpc/server";
import type { SessionUser } from "../../../auth";
import {
  createSession,
  followTurn,
  listingPreview,
  listMessages,
  listSessions,
  PlaygroundError,
  playgroundOptions,
  readableSession,
  removeSession,
  renameSession,
  runningTurn,
  startTurn,
  stopTurn,
  type TurnDeps,
} from "../../../services/playground";
import type { TRPCContext } from "../../trpc";
import type { TCreateInput } from "./playground.schema";

type Ctx = TRPCContext & { user: SessionUser };

export async function guarded<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof PlaygroundError) throw new TRPCError({ code: e.code, message: e.message });
    throw e;
  }
}

const deps = (ctx: Ctx): TurnDeps => ({ db: ctx.db, dataHome: ctx.dataHome, audit: ctx.audit });

export const optionsHandler = ({ ctx }: { ctx: Ctx }) => guarded(() => playgroundOptions(ctx.db, ctx.dataHome, ctx.user));

export const listHandler = ({ ctx }: { ctx: Ctx }) =>
  guarded(() => listSessions(ctx.db, ctx.user.id).map((s) => ({ ...s, running: runningTurn(s.id) !== null })));

export const getHandler = ({ ctx, input }: { ctx: Ctx; input: { sessionId: string } }) =>
  guarded(() => {
    const session = readableSession(ctx.db, ctx.user, input.sessionId);
    return {
      session,
      messages: listMessages(ctx.db, session.id),
      running: runningTurn(session.id),
      canWrite: session.userId === ctx.user.id && ctx.user.role !== "viewer",
    };
  });

export const createHandler = ({ ctx, input }: { ctx: Ctx; input: TCreateInput }) =>
  guarded(() => createSession(ctx.db, ctx.dataHome, ctx.user, input));

export const renameHandler = ({ ctx, input }: { ctx: Ctx; input: { sessionId: string; title: string } }) =>
  guarded(() => renameSession(ctx.db, ctx.user, input.sessionId, input.title));

export const removeHandler = ({ ctx, input }: { ctx: Ctx; input: { sessionId: string } }) =>
  guarded(async () => {
    await removeSession(ctx.db, ctx.dataHome, ctx.user, input.sessionId);
    return { deleted: input.sessionId };
  });

export const sendHandler = ({ ctx, input }: { ctx: Ctx; input: { sessionId: string; request: string; mode?: "tool" | "prompt" | "orchestrated" } }) =>
  guarded(() => startTurn(deps(ctx), ctx.user, input.sessionId, { request: input.request, ...(input.mode ? { mode: input.mode } : {}) }));

export const replayHandler = ({ ctx, input }: { ctx: Ctx; input: { sessionId: string; turn: number; mode: "tool" | "prompt" | "orchestrated" } }) =>
  guarded(() => startTurn(deps(ctx), ctx.user, input.sessionId, { replayOf: input.turn, mode: input.mode }));

export const stopHandler = ({ ctx, input }: { ctx: Ctx; input: { sessionId: string } }) =>
  guarded(() => ({ stopped: stopTurn(ctx.db, ctx.user, input.sessionId) }));

export const listingHandler = ({ ctx, input }: { ctx: Ctx; input: { sessionId: string; mode?: "tool" | "prompt" | "orchestrated"; request?: string } }) =>
  guarded(() => listingPreview(deps(ctx), ctx.user, input.sessionId, input.mode, input.request ?? ""));

/** The running turn's events, live. Access is checked before the stream starts (a refusal is an error, not an empty stream). */
export const followHandler = ({ ctx, input, signal }: { ctx: Ctx; input: { sessionId: string; from: number }; signal: AbortSignal | undefined }) =>
  guarded(() => followTurn(ctx.db, ctx.user, input.sessionId, input.from, signal));
