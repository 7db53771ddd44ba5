// The answer of every route other than tRPC's (trpc-route.ts has its own, in tRPC's shape) when the database does not
// answer: 503 with the one line a person can act on. A route handler's throw reached Next, which logged drizzle's
// message (the query and its parameters: a session id, a token's hash, an email) and answered 500.
import { AsyncLocalStorage } from "node:async_hooks";
import { databaseUnreachableMessage } from "../../db/dialect";

/** The stable code of the answer, for machine clients (`omniforge sync`, OTLP exporters). */
export const DATABASE_UNREACHABLE = "database_unreachable";

/** What the 503 carries: by default `{ error: { code, message } }`; a client of its own shape says its own. */
type DownBody = (line: string, req: Request | undefined) => unknown;
const ERROR_BODY: DownBody = (line) => ({ error: { code: DATABASE_UNREACHABLE, message: line } });

/** 503 with the one line, or null when `err` is not the database being away. */
export function databaseDownAnswer(err: unknown, req?: Request, body: DownBody = ERROR_BODY): Response | null {
  const line = databaseUnreachableMessage(err);
  if (!line) return null;
  return new Response(JSON.stringify(body(line, req)), {
    status: 503,
    // The pool reconnects on the next request; a client that honours it comes back once the database may be.
    headers: { "content-type": "application/json", "retry-after": "5", "cache-control": "no-store" },
  });
}

/** `handler`, answering 503 instead of throwing when the database does not answer (every other throw stays as it was). */
export function answeringDatabaseDown<A extends unknown[]>(handler: (...args: A) => Promise<Response>, body?: DownBody): (...args: A) => Promise<Response> {
  return async (...args) => {
    const req = args[0] instanceof Request ? args[0] : undefined;
    const seen: { err?: unknown } = {};
    try {
      const res = await seenThrough.run(seen, () => handler(...args));
      // A library that catches the failure itself (next-auth's sign-in) answered in its own way; noted, it is ours.
      return (seen.err !== undefined && databaseDownAnswer(seen.err, req, body)) || res;
    } catch (e) {
      const down = databaseDownAnswer(e, req, body);
      if (down) return down;
      throw e;
    }
  };
}

/**
 * next-auth's own shape for a POST from its client (next-auth/react reads `url` and the `error` in it, and failed on
 * any other body): the login form then shows the one line. A GET (a browser's navigation) gets it as JSON.
 */
export const NEXT_AUTH_BODY: DownBody = (line, req) => {
  if (req?.method !== "POST") return ERROR_BODY(line, req);
  const url = new URL("/api/auth/error", req.url);
  url.searchParams.set("error", line);
  return { url: url.toString() };
};

const seenThrough = new AsyncLocalStorage<{ err?: unknown }>();

/**
 * For code a library calls and whose throw it catches (next-auth's authorize and events): when `err` is the database
 * being away, the request's answer becomes the 503, and what is thrown on is the one line, never the driver's message.
 */
export function databaseDownSeen(err: unknown): unknown {
  const line = databaseUnreachableMessage(err);
  if (!line) return err;
  const seen = seenThrough.getStore();
  if (seen) seen.err = err;
  return new Error(line);
}
