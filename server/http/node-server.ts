// The console's HTTP server: Next's request handler behind a thin layer that does what a route handler
// cannot, because it only sees a fetch Request: it stamps the socket peer (server/http/peer.ts), and refuses
// a body whose declared length is over the route's limit before Next reads a byte of it.
import http from "node:http";
import { REFUSED_BODY_DRAIN_BYTES } from "../domain/limits";
import { bodyLimitFor } from "./body-limit";
import { answerWith, EdgeQueue, edgeRouteFor } from "./edge";
import { lingerOnClose } from "./linger";
import { stampPeer } from "./peer";

// Node's parser answers CONNECT and unknown methods (TRACK) itself; TRACE reaches the request handler.
const UNSUPPORTED_METHODS = new Set(["TRACE"]);

export type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;

/** `edge`: answer the routes registered in server/http/edge.ts directly (the production server). */
export function createConsoleServer(handle: NodeHandler, options: { edge?: boolean } = {}): http.Server {
  const queue = new EdgeQueue();
  const failed = (res: http.ServerResponse) => (e: unknown) => {
    console.error("[omniforge] request failed:", e);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  };
  return http.createServer((req, res) => {
    // The fetch Request that Next and the edge routes build refuses these methods: each was a 500 and a stack trace
    // in the log, for anyone without a session to cause.
    if (UNSUPPORTED_METHODS.has(req.method ?? "")) {
      res.writeHead(405, { allow: "GET, HEAD, POST, OPTIONS", "content-type": "text/plain; charset=utf-8", connection: "close" });
      res.end(`${req.method} is not supported here.\n`);
      return;
    }
    stampPeer(req);
    const refused = declaredBodyRefusal(req);
    if (refused) {
      // A client still sending the body it declared reads this answer only if the connection stays open until it
      // is done: closed under it, its next write fails (EPIPE) and the reason never arrives. So a body of a
      // declared size up to REFUSED_BODY_DRAIN_BYTES is read and dropped (Node discards what the answer left
      // unread, never buffering it) on a connection kept open; a larger or undeclared one is cut off at the answer,
      // in stages (linger.ts), so the cut does not reset the connection under the answer.
      const declared = Number(req.headers["content-length"]);
      const drain = Number.isFinite(declared) && declared <= REFUSED_BODY_DRAIN_BYTES;
      if (!drain) lingerOnClose(req.socket);
      res.writeHead(refused.status, { "content-type": "text/plain; charset=utf-8", ...(drain ? {} : { connection: "close" }) });
      res.end(refused.message + "\n");
      return;
    }
    const direct = options.edge ? edgeRouteFor(req.method ?? "GET", req.url ?? "/") : undefined;
    if (!direct) {
      void Promise.resolve(handle(req, res)).catch(failed(res));
      return;
    }
    if (direct.immediate) void answerWith(direct.handler, req, res).catch(failed(res));
    else queue.push(() => void answerWith(direct.handler, req, res).catch(failed(res)));
  });
}

function declaredBodyRefusal(req: http.IncomingMessage): { status: number; message: string } | null {
  if (req.method === "GET" || req.method === "HEAD") return null;
  const url = req.url ?? "/";
  const limit = bodyLimitFor(url);
  const declared = req.headers["content-length"];
  if (declared !== undefined) {
    const n = Number(declared);
    if (Number.isFinite(n) && n > limit) return { status: 413, message: `The request body is ${n} bytes; the limit here is ${limit} bytes.` };
    return null;
  }
  // Without a length only our tRPC and OTLP routes count while reading (server/http/body-limit.ts); elsewhere a
  // streamed body of unknown size is not accepted. OpenTelemetry's exporters stream their bodies chunked.
  if (req.headers["transfer-encoding"] && !url.startsWith("/api/trpc") && !url.startsWith("/api/otel/")) {
    return { status: 411, message: "Send a Content-Length with the request body." };
  }
  return null;
}

/**
 * Starts listening, or rejects with one line a person can act on. Unhandled, a port in use was Node's stack trace
 * (twice, once more from Next's handler) and the start still exited 0.
 */
export function listenOn(server: http.Server, port: number, host?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const refused = (e: NodeJS.ErrnoException) =>
      reject(
        new Error(
          e.code === "EADDRINUSE"
            ? `port ${port} is already in use (another console, or another program): stop it, or set PORT to a free port`
            : e.code === "EACCES"
              ? `port ${port} may not be opened by this user (below 1024 needs root): set PORT to 1024 or above`
              : e.code === "EADDRNOTAVAIL" || e.code === "ENOTFOUND"
                ? `HOST ${host} is not an address of this machine: set HOST to one of its addresses (127.0.0.1 keeps the console on this machine), or leave it unset for every interface`
                : `cannot listen on port ${port}: ${e.message}`,
        ),
      );
    server.once("error", refused);
    // No host: every interface, as Next's own server does (HOST in the README's settings).
    server.listen(port, host, () => {
      server.off("error", refused);
      resolve();
    });
  });
}
