import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { listenLocal } from "../test-support/listen";
import { answerAtEdge, EdgeQueue } from "./edge";
import { createConsoleServer } from "./node-server";

// What Next would have answered: the fallback for every request the console's server does not answer itself.
const viaNext = (req: http.IncomingMessage, res: http.ServerResponse) => {
  res.writeHead(200, { "content-type": "text/plain" });
  res.end(`next ${req.method} ${req.url}`);
};

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function consoleServer(edge: boolean): Promise<string> {
  const s = await listenLocal(createConsoleServer(viaNext, { edge }));
  close = s.close;
  return s.url;
}

/** A raw request, to see the bytes and headers as they leave the server (fetch would gunzip them). */
function raw(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on("error", reject);
  });
}

describe("the console's server answers registered routes itself", () => {
  it("hands a registered route's requests to its handler with method, path, query, headers, cookies, peer and body", async () => {
    const seen: { method: string; url: string; cookie: string | null; peer: string | null; body: string }[] = [];
    answerAtEdge("/api/edge-test", ["GET", "POST"], async (req) => {
      seen.push({ method: req.method, url: req.url, cookie: req.headers.get("cookie"), peer: req.headers.get("x-omniforge-peer"), body: await req.text() });
      return Response.json({ ok: true }, { headers: { "set-cookie": "a=1", "x-answer": "edge" } });
    });
    const url = await consoleServer(true);
    const got = await fetch(`${url}/api/edge-test/thing?input=%7B%7D`, {
      method: "POST",
      headers: { cookie: "next-auth.session-token=abc", "x-omniforge-peer": "203.0.113.9" },
      body: "hello",
    });
    expect(got.status).toBe(200);
    expect(got.headers.get("x-answer")).toBe("edge");
    expect(got.headers.getSetCookie()).toEqual(["a=1"]);
    expect(await got.json()).toEqual({ ok: true });
    // The peer is the socket's, not what the client wrote.
    expect(seen).toEqual([{ method: "POST", url: "http://localhost/api/edge-test/thing?input=%7B%7D", cookie: "next-auth.session-token=abc", peer: "127.0.0.1", body: "hello" }]);
  });

  it("leaves other methods, other paths and a path that only starts alike to Next", async () => {
    answerAtEdge("/api/edge-only-get", ["GET"], async () => new Response("edge"));
    const url = await consoleServer(true);
    expect(await (await fetch(`${url}/api/edge-only-get`)).text()).toBe("edge");
    expect(await (await fetch(`${url}/api/edge-only-get`, { method: "DELETE" })).text()).toBe("next DELETE /api/edge-only-get");
    expect(await (await fetch(`${url}/api/edge-only-getter`)).text()).toBe("next GET /api/edge-only-getter");
    expect(await (await fetch(`${url}/skills`)).text()).toBe("next GET /skills");
  });

  it("answers nothing itself when edge routing is off (the dev server, whose route modules reload)", async () => {
    answerAtEdge("/api/edge-off", ["GET"], async () => new Response("edge"));
    const url = await consoleServer(false);
    expect(await (await fetch(`${url}/api/edge-off`)).text()).toBe("next GET /api/edge-off");
  });

  it("gzips a JSON answer of 1 KiB or more for a client that accepts it, and only then", async () => {
    const big = { rows: Array.from({ length: 200 }, (_, i) => ({ name: `skill-${i}`, description: "Does a thing. Use it when needed." })) };
    answerAtEdge("/api/edge-json", ["GET"], async (req) => Response.json(new URL(req.url).searchParams.has("small") ? { ok: 1 } : big));
    const url = await consoleServer(true);
    const zipped = await raw(`${url}/api/edge-json`, { "accept-encoding": "gzip, deflate" });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers.vary).toBe("Accept-Encoding");
    expect(Number(zipped.headers["content-length"])).toBe(zipped.body.length);
    expect(JSON.parse((await import("node:zlib")).gunzipSync(zipped.body).toString())).toEqual(big);
    const plain = await raw(`${url}/api/edge-json`);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(plain.body.toString())).toEqual(big);
    const small = await raw(`${url}/api/edge-json?small`, { "accept-encoding": "gzip" });
    expect([small.headers["content-encoding"], small.body.toString()]).toEqual([undefined, '{"ok":1}']);
  });

  it("streams server-sent events as they come, and tells the handler when the client goes away", async () => {
    let cancelled: () => void = () => undefined;
    const gone = new Promise<string>((resolve) => (cancelled = () => resolve("cancelled")));
    answerAtEdge("/api/edge-events", ["GET"], async (req) => {
      const aborted = new Promise<string>((resolve) => req.signal.addEventListener("abort", () => resolve("aborted")));
      let n = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(c) {
          n++;
          c.enqueue(new TextEncoder().encode(`data: ${n}\n\n`));
          await new Promise((r) => setTimeout(r, 20));
        },
        cancel: () => cancelled(),
      });
      void aborted.then(() => cancelled());
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    });
    const url = await consoleServer(true);
    const stop = new AbortController();
    const res = await fetch(`${url}/api/edge-events`, { signal: stop.signal });
    const reader = res.body!.getReader();
    let text = "";
    while (!text.includes("data: 3")) text += new TextDecoder().decode((await reader.read()).value);
    expect(text.startsWith("data: 1\n\ndata: 2\n\n")).toBe(true);
    stop.abort();
    // The handler hears of it (a handler that never did would hold the test to its timeout and fail it).
    expect(await gone).toBe("cancelled");
  });

  it("answers a probe that arrives with a burst of queued calls before any of them, and the calls in order", async () => {
    const started: string[] = [];
    const busy = (ms: number) => {
      for (const end = performance.now() + ms; performance.now() < end; );
    };
    answerAtEdge("/api/edge-slow", ["GET"], async (req) => {
      started.push(new URL(req.url).searchParams.get("n")!);
      busy(5); // a tRPC call's work: synchronous, on the one event loop
      return Response.json({ ok: true });
    });
    answerAtEdge("/api/edge-probe", ["GET"], async () => {
      started.push("probe");
      return Response.json({ status: "ok" });
    }, { immediate: true });
    const server = createConsoleServer(viaNext, { edge: true });
    let accepted = 0;
    server.on("connection", () => accepted++);
    const s = await listenLocal(server);
    close = s.close;
    const url = new URL(s.url);
    // Nine connections the server has accepted, then nine requests written in one go: they reach its socket
    // buffers together, the probe last, as a health check does in the middle of a busy console.
    const sockets = await Promise.all(
      Array.from({ length: 9 }, () => new Promise<net.Socket>((ok) => { const c = net.connect(Number(url.port), url.hostname, () => ok(c)); })),
    );
    while (accepted < 9) await new Promise((r) => setTimeout(r, 5));
    const answered = sockets.map((c) => new Promise<void>((ok) => c.on("data", (d: Buffer) => d.toString().includes("\r\n\r\n") && ok())));
    sockets.forEach((c, i) => c.write(`GET ${i < 8 ? `/api/edge-slow?n=${i}` : "/api/edge-probe"} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    await Promise.all(answered);
    sockets.forEach((c) => c.destroy());
    expect(started[0]).toBe("probe");
    expect(started.slice(1)).toEqual(["0", "1", "2", "3", "4", "5", "6", "7"]);
  });

  it("keeps starting queued work in order when one start throws", async () => {
    const queue = new EdgeQueue();
    const started: number[] = [];
    const thrown: unknown[] = [];
    const onError = (e: unknown) => thrown.push(e);
    process.on("uncaughtException", onError);
    try {
      await new Promise<void>((done) => {
        queue.push(() => started.push(1));
        queue.push(() => {
          started.push(2);
          throw new Error("a broken start");
        });
        queue.push(() => (started.push(3), done()));
      });
    } finally {
      process.off("uncaughtException", onError);
    }
    expect(started).toEqual([1, 2, 3]);
  });
});
