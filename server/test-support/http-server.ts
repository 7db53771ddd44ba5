// A real HTTP server on 127.0.0.1 (a free port) built with the console's own server wrapper, serving a
// fetch-style handler the way Next serves a route handler: what route-level tests run against.
import type http from "node:http";
import { Readable } from "node:stream";
import { createConsoleServer } from "../http/node-server";
import { listenLocal } from "./listen";

export async function serveFetch(handler: (req: Request) => Promise<Response>): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createConsoleServer(async (req, res) => {
    const res2 = await handler(toWebRequest(req));
    res.writeHead(res2.status, Object.fromEntries(res2.headers));
    res.end(Buffer.from(await res2.arrayBuffer()));
  });
  return listenLocal(server);
}

function toWebRequest(req: http.IncomingMessage): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(`http://127.0.0.1${req.url ?? "/"}`, {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : null,
    // @ts-expect-error Node's fetch needs this for a streamed body; the DOM types do not know it.
    duplex: "half",
  });
}
