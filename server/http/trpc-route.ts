// The tRPC endpoint's edge, before any procedure runs: a state-changing call from another site is refused
// (403, audited as access_denied) and a body over its limit is refused (413) without being read whole.
// app/api/trpc/[trpc]/route.ts passes in the session and address; tests pass their own.
import { TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "../api/root";
import type { TRPCContext } from "../api/trpc";
import { BODY_LIMITS } from "../domain/limits";
import { bodyLimitFor, BodyTooLarge, readBodyWithin } from "./body-limit";
import { crossSiteReason, hasBearerToken, originAdvice } from "./origin";

export interface TrpcRouteDeps {
  /** The context for procedures; `bearer` says the request carries a token, so no cookie session counts. */
  context(opts: { bearer: boolean }): Promise<TRPCContext>;
  allowedOrigins: Set<string>;
}

const json = (status: number, code: string, message: string) =>
  new Response(JSON.stringify({ error: { code, message } }), { status, headers: { "content-type": "application/json" } });

export async function handleTrpcRequest(req: Request, deps: TrpcRouteDeps): Promise<Response> {
  const url = new URL(req.url);
  const bearer = hasBearerToken(req.headers);
  let body: Uint8Array | null = null;
  if (req.method !== "GET" && req.method !== "HEAD") {
    const reason = crossSiteReason(req.headers, deps.allowedOrigins);
    if (reason) {
      const ctx = await deps.context({ bearer });
      ctx.audit.record({
        type: "access_denied",
        actor: ctx.user ? { id: ctx.user.id, email: ctx.user.email } : undefined,
        outcome: "refused",
        details: { route: "/api/trpc", procedure: procedures(url), reason, ip: ctx.ip },
      });
      return refusedInTrpcShape(req, url, `Refused: ${reason}.${originAdvice(req.headers, deps.allowedOrigins)}`);
    }
    // A procedure's larger limit (an archive upload, editor text) is for a signed-in caller: a batch URL naming
    // skill.import would otherwise let anyone make the console buffer an upload's worth before any check of who
    // they are. (The console's own server refuses a declared length over the largest limit before this.)
    let limit = bodyLimitFor(url.pathname);
    if (limit > BODY_LIMITS.trpc && !(await deps.context({ bearer })).user) limit = BODY_LIMITS.trpc;
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
    createContext: () => deps.context({ bearer }),
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
function refusedInTrpcShape(req: Request, url: URL, message: string): Promise<Response> {
  const bodyless = new Request(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: bodyless,
    router: appRouter,
    createContext: () => {
      throw new TRPCError({ code: "FORBIDDEN", message });
    },
  });
}

function procedures(url: URL): string {
  return decodeURIComponent(url.pathname.replace(/^\/api\/trpc\/?/, "")).slice(0, 300);
}
