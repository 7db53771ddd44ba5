// The tRPC endpoint's edge, before any procedure runs: a state-changing call from another site is refused
// (403, audited as access_denied) and a body over its limit is refused (413) without being read whole.
// app/api/trpc/[trpc]/route.ts passes in the session and address; tests pass their own.
import { TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { databaseUnreachableMessage } from "../../db/dialect";
import { appRouter } from "../api/root";
import type { TRPCContext } from "../api/trpc";
import { BODY_LIMITS } from "../domain/limits";
import { bodyLimitFor, BodyTooLarge, readBodyWithin } from "./body-limit";
import { crossSiteReason, hasBearerToken, originAdvice } from "./origin";
import { soleTenant } from "../services/tenants/membership";
import { inRequestScope } from "../services/policy/request-stamp";

export interface TrpcRouteDeps {
  /** The context for procedures; `bearer` says the request carries a token, so no cookie session counts. */
  context(opts: { bearer: boolean }): Promise<TRPCContext>;
  allowedOrigins: Set<string>;
}

const json = (status: number, code: string, message: string) =>
  new Response(JSON.stringify({ error: { code, message } }), { status, headers: { "content-type": "application/json" } });

/**
 * The context, or a 503 with the one line every page shows when the database does not answer. The context reads the
 * session before any procedure runs, so the procedures' own mapping (api/trpc.ts) never saw this failure: it was a
 * 500 whose message was drizzle's, the query and its parameters (the session's id) included, in the answer and the
 * log (found by the two-server bench stopping PostgreSQL under load).
 */
async function contextOf(deps: TrpcRouteDeps, bearer: boolean): Promise<TRPCContext> {
  try {
    return await deps.context({ bearer });
  } catch (e) {
    const unreachable = databaseUnreachableMessage(e);
    if (unreachable) throw new TRPCError({ code: "SERVICE_UNAVAILABLE", message: unreachable });
    throw e;
  }
}

export async function handleTrpcRequest(req: Request, deps: TrpcRouteDeps): Promise<Response> {
  // A query's policy reads take the stamp its session read found (policy/request-stamp.ts). Not a mutation's: one that
  // changes the policy or an approval must read its own change back.
  return req.method === "GET" ? inRequestScope(() => handleInScope(req, deps)) : handleInScope(req, deps);
}

async function handleInScope(req: Request, deps: TrpcRouteDeps): Promise<Response> {
  try {
    return await handle(req, deps);
  } catch (e) {
    // A context needed before tRPC's handler (a refusal's audit, a larger body's caller) met a database that does not answer.
    if (e instanceof TRPCError && e.code === "SERVICE_UNAVAILABLE") return inTrpcShape(new URL(req.url), e);
    throw e;
  }
}

async function handle(req: Request, deps: TrpcRouteDeps): Promise<Response> {
  const url = new URL(req.url);
  const bearer = hasBearerToken(req.headers);
  let body: Uint8Array | null = null;
  if (req.method !== "GET" && req.method !== "HEAD") {
    const reason = crossSiteReason(req.headers, deps.allowedOrigins);
    if (reason) {
      const ctx = await contextOf(deps, bearer);
      const tenant = ctx.user ? await soleTenant(ctx.db, ctx.user).catch(() => undefined) : undefined;
      ctx.audit.record({
        type: "access_denied",
        actor: ctx.user ? { id: ctx.user.id, email: ctx.user.email } : undefined,
        outcome: "refused",
        ...(tenant !== undefined ? { tenant } : {}),
        details: { route: "/api/trpc", procedure: procedures(url), reason, ip: ctx.ip },
      });
      return inTrpcShape(url, new TRPCError({ code: "FORBIDDEN", message: `Refused: ${reason}.${originAdvice(req.headers, deps.allowedOrigins)}` }));
    }
    // A procedure's larger limit (an archive upload, editor text) is for a signed-in caller: a batch URL naming
    // skill.import would otherwise let anyone make the console buffer an upload's worth before any check of who
    // they are. (The console's own server refuses a declared length over the largest limit before this.)
    let limit = bodyLimitFor(url.pathname);
    if (limit > BODY_LIMITS.trpc && !(await contextOf(deps, bearer)).user) limit = BODY_LIMITS.trpc;
    try {
      body = await readBodyWithin(req, limit);
    } catch (e) {
      if (e instanceof BodyTooLarge) return json(413, "PAYLOAD_TOO_LARGE", e.message);
      throw e;
    }
  }
  // A query has no body to replace: the request goes on as it came (a copy cost a tenth of a millisecond each).
  const inner = body === null ? req : new Request(req.url, { method: req.method, headers: req.headers, body: body as BodyInit });
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: inner,
    router: appRouter,
    createContext: () => contextOf(deps, bearer),
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(`[trpc] ${path ?? "?"}:`, error);
    },
  });
}

/**
 * A refusal the console's own client can read: tRPC's error for every call the URL names (its shape, status and
 * transformer), made by tRPC itself from a context that refuses. A plain JSON body was "Unable to transform
 * response from server" in the browser, so a person saw nothing of why. The request's body is never read.
 */
function inTrpcShape(url: URL, error: TRPCError): Promise<Response> {
  const bodyless = new Request(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: bodyless,
    router: appRouter,
    createContext: () => {
      throw error;
    },
  });
}

function procedures(url: URL): string {
  return decodeURIComponent(url.pathname.replace(/^\/api\/trpc\/?/, "")).slice(0, 300);
}
