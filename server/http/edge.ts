// Routes the console's own server answers without Next's request pipeline (issue 15: a console that holds
// twenty people). Next's route handling (routing, its async context, web-stream piping, compression) cost more
// CPU per tRPC call than the procedures themselves, and every request on the one event loop waits behind it.
// The handler is the very one Next runs: the route module registers it here as it loads (same module
// instances, same caches), so the first request of each route goes through Next and every later one comes
// straight from the socket. Only the production server does this; the dev server reloads route modules.
import type http from "node:http";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { processWide } from "../process-wide";

export type FetchHandler = (req: Request) => Promise<Response>;

const routes = processWide("edgeRoutes", () => new Map<string, { handler: FetchHandler; methods: string[] }>());

/**
 * Called by a route module as it loads: from then on `path` (and what is below it) is answered by `handler`
 * directly for `methods`; any other method still goes to Next, which answers as the route module declares.
 */
export function answerAtEdge(path: string, methods: string[], handler: FetchHandler): void {
  routes().set(path, { handler, methods });
}

/** The registered handler for a request, if any. */
export function edgeHandlerFor(method: string, url: string): FetchHandler | undefined {
  const q = url.indexOf("?");
  const pathname = q < 0 ? url : url.slice(0, q);
  for (const [path, route] of routes()) {
    if ((pathname === path || pathname.startsWith(path + "/")) && route.methods.includes(method)) return route.handler;
  }
  return undefined;
}

const gzip = promisify(zlib.gzip);
// Below this a compressed answer saves less than it costs (Next's compression used the same threshold).
const COMPRESS_FROM_BYTES = 1024;

/** Answers a Node request with a fetch-style handler: the request's body streams in, a JSON answer goes out in one write. */
export async function answerWith(handler: FetchHandler, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const aborted = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) aborted.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const withBody = req.method !== "GET" && req.method !== "HEAD";
  const request = new Request(new URL(req.url ?? "/", "http://localhost"), {
    method: req.method,
    headers,
    signal: aborted.signal,
    ...(withBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" } : {}),
  } as RequestInit);
  const response = await handler(request);

  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("set-cookie", cookies);
  if (!response.body) {
    res.end();
    return;
  }
  if (!(response.headers.get("content-type") ?? "").startsWith("application/json")) return pipeStream(response.body, res);
  let body = Buffer.from(await response.arrayBuffer());
  if (body.length >= COMPRESS_FROM_BYTES && !response.headers.has("content-encoding") && /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))) {
    body = await gzip(body); // on libuv's thread pool, off the event loop
    res.setHeader("content-encoding", "gzip");
    res.setHeader("vary", "Accept-Encoding");
  }
  res.setHeader("content-length", body.length);
  res.end(body);
}

/** A streamed answer (a subscription's server-sent events) is written as it comes, and cancelled when the client goes. */
async function pipeStream(body: ReadableStream<Uint8Array>, res: http.ServerResponse): Promise<void> {
  res.flushHeaders();
  const reader = body.getReader();
  const gone = new Promise<void>((resolve) => res.once("close", resolve));
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), gone.then(() => null)]);
      if (!next || next.done || res.destroyed) break;
      if (!res.write(next.value)) await Promise.race([new Promise((r) => res.once("drain", r)), gone]);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
    res.end();
  }
}
