// A small reverse proxy on 127.0.0.1 standing in for nginx in the two-server bench (docs/deploy.md keeps the nginx
// configuration people use). It does what that configuration does: requests go round-robin to the console servers,
// X-Forwarded-For gains the client's address (the consoles believe it because OMNIFORGE_TRUSTED_PROXIES names the
// proxy), and a server that refuses the connection is left out for 10 s while the request goes to the next one
// (nginx's max_fails=1 fail_timeout=10s). As nginx, a refused connection is tried on the next server whatever the
// method (the request never reached one), a reset only for a GET (a POST may have been half done). Responses stream through (the playground's server-sent events), marked with the server that answered.
import http from "node:http";
import type net from "node:net";

export const UPSTREAM_HEADER = "x-omniforge-upstream";
const DOWN_MS = 10_000;

export interface Proxy {
  base: string;
  /** Requests answered by each upstream, in the order given. */
  served: number[];
  close(): Promise<void>;
}

export async function startProxy(upstreams: string[]): Promise<Proxy> {
  const served = upstreams.map(() => 0);
  const downUntil = upstreams.map(() => 0);
  let next = 0;
  const pick = (tried: Set<number>): number | null => {
    for (let k = 0; k < upstreams.length; k++) {
      const i = (next + k) % upstreams.length;
      if (!tried.has(i) && downUntil[i]! <= Date.now()) {
        next = i + 1;
        return i;
      }
    }
    // Every server marked down: try one not tried yet anyway, as nginx does when all are down.
    const left = upstreams.findIndex((_, i) => !tried.has(i));
    return left < 0 ? null : left;
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const tried = new Set<number>();
      const forward = () => {
        const i = pick(tried);
        if (i === null) {
          res.writeHead(502, { "content-type": "text/plain" }).end("no console server answers\n");
          return;
        }
        tried.add(i);
        const target = new URL(req.url ?? "/", upstreams[i]);
        const peer = req.socket.remoteAddress ?? "";
        const forwarded = req.headers["x-forwarded-for"] ? `${String(req.headers["x-forwarded-for"])}, ${peer}` : peer;
        const up = http.request(target, {
          method: req.method,
          headers: { ...req.headers, "x-forwarded-for": forwarded, "x-forwarded-proto": "http", "x-forwarded-host": req.headers.host ?? "" },
        });
        let answered = false;
        up.on("response", (ur) => {
          answered = true;
          served[i]!++;
          res.writeHead(ur.statusCode ?? 502, { ...ur.headers, [UPSTREAM_HEADER]: String(i) });
          ur.pipe(res);
          ur.on("error", () => res.destroy());
        });
        up.on("error", (e: NodeJS.ErrnoException) => {
          if (answered) return res.destroy();
          // The server is gone: marked down, and the request goes to the next one when that is safe.
          if (e.code === "ECONNREFUSED" || (e.code === "ECONNRESET" && (req.method === "GET" || req.method === "HEAD"))) {
            downUntil[i] = Date.now() + DOWN_MS;
            return forward();
          }
          if (e.code === "ECONNRESET") downUntil[i] = Date.now() + DOWN_MS;
          if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" }).end(`${e.code ?? e.message}\n`);
        });
        res.on("close", () => up.destroy());
        up.end(body);
      };
      forward();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
