// Thin handlers over the playground service: the service decides (ownership, one turn at a time), its errors (ServiceErrors)
// travel through the serviceErrors middleware. Viewers are kept out of every write by authorProcedure in the router.
import { requestTenant, tenantCaller } from "../../../services/tenants";
import {
  createSession,
  followTurn,
  listingFor,
  listSessions,
  playgroundOptions,
  readableSession,
  removeSession,
  renameSession,
  runningTurn,
  sessionHistory,
  startTurn,
  stopTurn,
  turnListing as turnListingOf,
  turnToolOutput,
  type TurnDeps,
} from "../../../services/playground";
import type { AuthedContext } from "../../trpc";
import type { TCreateInput } from "./playground.schema";

const deps = (ctx: AuthedContext): TurnDeps => ({ db: ctx.db, dataHome: ctx.dataHome, audit: ctx.audit });

export const options = ({ ctx }: { ctx: AuthedContext }) => playgroundOptions(ctx.db, ctx.dataHome, ctx.user);

/** Each session says whether a turn runs in it, on whichever server (its claim in the database). */
export const list = ({ ctx }: { ctx: AuthedContext }) => listSessions(ctx.db, ctx.user.id);

export const get = async ({ ctx, input }: { ctx: AuthedContext; input: { sessionId: string } }) => {
  const session = await readableSession(ctx.db, ctx.user, input.sessionId);
  return {
    session,
    // Without what is only shown on demand (a listing's text and names: turnListing), so a long session stays small.
    messages: await sessionHistory(ctx.db, session.id),
    // On any server; `elsewhere` when another server runs it, and so has its live events.
    running: await runningTurn(ctx.db, session.id),
    canWrite: session.userId === ctx.user.id && ctx.user.role !== "viewer",
  };
};

/** A session's tenant is one of the caller's (issue #40): another is refused, none named is their only one. */
export const create = async ({ ctx, input }: { ctx: AuthedContext; input: TCreateInput }) =>
  createSession(ctx.db, ctx.dataHome, ctx.user, { ...input, tenant: requestTenant(await tenantCaller(ctx.db, ctx.user), input.tenant) });

export const rename = ({ ctx, input }: { ctx: AuthedContext; input: { sessionId: string; title: string } }) =>
  renameSession(ctx.db, ctx.user, input.sessionId, input.title);

export const remove = async ({ ctx, input }: { ctx: AuthedContext; input: { sessionId: string } }) => {
  await removeSession(deps(ctx), ctx.user, input.sessionId);
  return { deleted: input.sessionId };
};

export const send = ({ ctx, input }: { ctx: AuthedContext; input: { sessionId: string; request: string; mode?: "tool" | "prompt" | "orchestrated" } }) =>
  startTurn(deps(ctx), ctx.user, input.sessionId, { request: input.request, ...(input.mode ? { mode: input.mode } : {}) });

export const replay = ({ ctx, input }: { ctx: AuthedContext; input: { sessionId: string; turn: number; mode: "tool" | "prompt" | "orchestrated" } }) =>
  startTurn(deps(ctx), ctx.user, input.sessionId, { replayOf: input.turn, mode: input.mode });

export const stop = async ({ ctx, input }: { ctx: AuthedContext; input: { sessionId: string } }) =>
  ({ stopped: await stopTurn(deps(ctx), ctx.user, input.sessionId) });

export const listing = ({ ctx, input }: { ctx: AuthedContext; input: { sessionId: string; mode?: "tool" | "prompt" | "orchestrated"; request?: string } }) =>
  listingFor(deps(ctx), ctx.user, input.sessionId, input.mode, input.request ?? "");

/** One turn's listing in full, for the page's history when the person opens it. */
export const turnListing = ({ ctx, input }: { ctx: AuthedContext; input: { sessionId: string; turn: number; runId?: string } }) =>
  turnListingOf(ctx.db, ctx.user, input.sessionId, input.turn, input.runId);

/** One tool call's output in a turn's history, when the person opens the call. */
export const toolOutput = ({ ctx, input }: { ctx: AuthedContext; input: { sessionId: string; turn: number; callId: string; depth: number } }) =>
  turnToolOutput(ctx.db, ctx.user, input.sessionId, input.turn, input.callId, input.depth);

/** The running turn's events, live. Access is checked before the stream starts (a refusal is an error, not an empty stream). */
export const follow = ({ ctx, input, signal }: { ctx: AuthedContext; input: { sessionId: string; from: number }; signal: AbortSignal | undefined }) =>
  followTurn(ctx.db, ctx.user, input.sessionId, input.from, signal);
