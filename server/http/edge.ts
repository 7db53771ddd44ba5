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

export interface EdgeRoute {
  handler: FetchHandler;
  methods: string[];
  /** Answered as soon as it arrives, ahead of the queued requests (a probe: a few microseconds of work). */
  immediate: boolean;
}

const routes = processWide("edgeRoutes", () => new Map<string, EdgeRoute>());

/**
 * Called by a route module as it loads: from then on `path` (and what is below it) is answered by `handler`
 * directly for `methods`; any other method still goes to Next, which answers as the route module declares.
 * `immediate`: for cheap answers that must not wait behind the others (health): see EdgeQueue.
 */
export function answerAtEdge(path: string, methods: string[], handler: FetchHandler, opts: { immediate?: boolean } = {}): void {
  routes().set(path, { handler, methods, immediate: opts.immediate === true });
}

/** The registered route for a request, if any. */
export function edgeRouteFor(method: string, url: string): EdgeRoute | undefined {
  const q = url.indexOf("?");
  const pathname = q < 0 ? url : url.slice(0, q);
  for (const [path, route] of routes()) {
    if ((pathname === path || pathname.startsWith(path + "/")) && route.methods.includes(method)) return route;
  }
  return undefined;
}

/**
 * Starts queued requests one per turn of the event loop, in arrival order. Node reads every socket that is ready
 * in one go and would run each request's handler right away: a probe that arrives with fifteen tRPC calls waits
 * for all of them (tens of milliseconds under load). Queued, a request's work starts from setImmediate, and
 * between two of them the loop polls the sockets again, where an immediate route is answered at once: a probe
 * waits for at most the one request being worked on. The others keep their order and lose nothing but a poll.
 */
export class EdgeQueue {
  private waiting: Array<() => void> = [];
  private scheduled = false;

  push(start: () => void): void {
    this.waiting.push(start);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.next);
    }
  }

  private next = (): void => {
    const start = this.waiting.shift();
    try {
      start?.();
    } finally {
      // Whatever one start did, the ones behind it still start: a throw here must not leave the queue stalled.
      if (this.waiting.length) setImmediate(this.next);
      else this.scheduled = false;
    }
  };
}

const gzip = promisify(zlib.gzip);
// Below this a compressed answer saves less than it costs (Next's compression used the same threshold).
const COMPRESS_FROM_BYTES = 1024;
/**
 * Up to this size an answer is compressed at once on the event loop: at level 1 (nginx's default) a 36 KB list
 * page takes 0.05 ms, while handing it to the thread pool costs the loop three times that in stream and promise
 * work (measured under the load bench: 0.9 s of the console's CPU in zlib's stream code). Larger answers (a long
 * history) still go to the thread pool.
 */
const COMPRESS_ON_LOOP_MAX_BYTES = 256 * 1024;
const GZIP_OPTIONS: zlib.ZlibOptions = { level: 1 };

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
    body = body.length <= COMPRESS_ON_LOOP_MAX_BYTES ? zlib.gzipSync(body, GZIP_OPTIONS) : await gzip(body, GZIP_OPTIONS);
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
  let failed = false;
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), gone.then(() => null)]);
      if (!next || next.done || res.destroyed) break;
      if (!res.write(next.value)) await Promise.race([new Promise((r) => res.once("drain", r)), gone]);
    }
  } catch {
    failed = true; // the body failed midway: what was sent must not end as if it were whole
  } finally {
    await reader.cancel().catch(() => undefined);
    // Aborted, as Next does with a route's body that errors: the client sees the transfer fail, not a clean end.
    if (failed) res.destroy();
    else res.end();
  }
}
