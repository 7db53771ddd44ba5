// The console's server in front of Next: methods a fetch Request cannot carry are answered, not failed.
import http from "node:http";
import net from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listenLocal } from "../test-support/listen";
import { REFUSED_BODY_DRAIN_BYTES } from "../domain/limits";
import { createConsoleServer, listenOn } from "./node-server";
import { setting } from "../../env";

let server: Awaited<ReturnType<typeof listenLocal>>;
let reached: string[];
beforeEach(async () => {
  reached = [];
  server = await listenLocal(
    createConsoleServer((req, res) => {
      reached.push(req.method ?? "");
      // As Next does with a method undici's Request refuses.
      new Request("http://x/", { method: req.method });
      res.end("ok");
    }),
  );
});
afterEach(() => server.close());

function send(method: string): Promise<{ status: number; allow?: string }> {
  return new Promise((ok, fail) => {
    const req = http.request(`${server.url}/api/health`, { method }, (res) => {
      res.resume();
      res.on("end", () => ok({ status: res.statusCode ?? 0, allow: res.headers.allow }));
    });
    req.on("error", fail);
    req.end();
  });
}

describe("the console's server", () => {
  it("answers TRACE with 405 and what is allowed, without reaching the application", async () => {
    expect(await send("TRACE")).toEqual({ status: 405, allow: "GET, HEAD, POST, OPTIONS" });
    expect(reached).toEqual([]);
    expect((await send("GET")).status).toBe(200);
    expect(reached).toEqual(["GET"]);
  });
});

/**
 * Sends `total` bytes of body after headers declaring `declared`, in pieces with a pause between them (a slow
 * uploader, still writing when the answer comes), and reads whatever comes back. The socket's error, if any.
 */
function upload(declared: number, total: number): Promise<{ answer: string; error?: string; sent: number }> {
  const { port } = new URL(server.url);
  return new Promise((done) => {
    const socket = net.connect(Number(port), "127.0.0.1");
    let answer = "";
    let sent = 0;
    let error: string | undefined;
    socket.on("data", (d) => (answer += d.toString("latin1")));
    socket.on("error", (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on("close", () => done({ answer, error, sent }));
    socket.write(`POST /api/trpc/user.create HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`);
    const piece = Buffer.alloc(256 * 1024, 0x78);
    const next = () => {
      if (socket.destroyed) return;
      if (sent >= total) return void socket.end();
      const n = Math.min(piece.length, total - sent);
      sent += n;
      socket.write(piece.subarray(0, n), () => setTimeout(next, 5));
    };
    next();
  });
}

describe("a body refused for its declared size", () => {
  it("is read and dropped while the client is still sending it, so the client gets the 413 and why, not a reset", async () => {
    const size = 3 * 1024 * 1024;
    const r = await upload(size, size);
    expect(r.error).toBeUndefined();
    expect(r.sent).toBe(size);
    expect(r.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(r.answer).toContain(`The request body is ${size} bytes`);
    expect(reached).toEqual([]);
  });

  it("beyond what the console drops, the connection is cut after the answer instead of reading on", async () => {
    const r = await upload(REFUSED_BODY_DRAIN_BYTES + 1, REFUSED_BODY_DRAIN_BYTES + 1);
    expect(r.answer, `${r.error} after ${r.sent} bytes`).toMatch(/^HTTP\/1\.1 413 /);
    expect(r.sent).toBeLessThan(REFUSED_BODY_DRAIN_BYTES);
    expect(reached).toEqual([]);
  });
});

describe("a connection cut at a refusal", () => {
  it("gives the answer to a client that writes on before it reads: the cut is staged, not a reset under the answer", async () => {
    const console_ = createConsoleServer((_req, res) => void res.end());
    // The server's side has sent its answer and its end (a cut that resets is closed by then).
    const answered = new Promise<void>((ok) => console_.on("connection", (side: net.Socket) => side.once("finish", ok)));
    const s = await listenLocal(console_);
    try {
      const socket = net.connect(Number(new URL(s.url).port), "127.0.0.1");
      socket.pause(); // reads nothing until it has written on past the answer, as a busy client does
      let answer = "";
      let error: string | undefined;
      socket.on("data", (d) => (answer += d.toString("latin1")));
      socket.on("error", (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
      const closed = new Promise<void>((ok) => socket.on("close", () => ok()));
      const write = (b: Buffer | string) => new Promise<void>((ok) => socket.write(b, () => ok()));
      await write(`POST /api/trpc/user.create HTTP/1.1\r\nHost: x\r\nContent-Length: ${REFUSED_BODY_DRAIN_BYTES + 1}\r\n\r\n`);
      await answered;
      // A cut that resets the connection fails these writes (EPIPE) and drops the answer unread.
      for (let i = 0; i < 8 && !socket.destroyed; i++) await write(Buffer.alloc(256 * 1024, 0x78));
      socket.resume();
      await closed;
      expect(error ?? "none").not.toMatch(/EPIPE|ECONNRESET/);
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toContain(`The request body is ${REFUSED_BODY_DRAIN_BYTES + 1} bytes`);
    } finally {
      await s.close();
    }
  });
});

describe("starting the console's server", () => {
  it("a port in use is one line saying so and what to do, not a stack trace", async () => {
    const taken = Number(new URL(server.url).port);
    const second = createConsoleServer((_req, res) => void res.end());
    await expect(listenOn(second, taken)).rejects.toThrow(
      new Error(`port ${taken} is already in use (another console, or another program): stop it, or set PORT to a free port`),
    );
    expect(second.listening).toBe(false);
  });

  // Issue #35 item 10: HOST chooses the interface (unset, every interface, as Next's own server does: not tried
  // here, since a test's server stays on 127.0.0.1).
  it("listens on HOST only, when one is set", async () => {
    const local = createConsoleServer((_req, res) => void res.end());
    try {
      await listenOn(local, 0, "127.0.0.1");
      expect((local.address() as net.AddressInfo).address).toBe("127.0.0.1");
    } finally {
      local.close();
    }
  });

  it("a HOST this machine does not have is one line naming the setting", async () => {
    const s = createConsoleServer((_req, res) => void res.end());
    // 192.0.2.1 is TEST-NET-1: documentation only, never a local address.
    await expect(listenOn(s, 0, "192.0.2.1")).rejects.toThrow(/^HOST 192\.0\.2\.1 is not an address of this machine: set HOST/);
    expect(s.listening).toBe(false);
  });

  it("HOST is checked at start: a value that is no address or host name names the variable", () => {
    expect(() => setting("HOST", { HOST: "http://localhost:3000" })).toThrow(/^Invalid environment variable HOST: must be an address/);
    expect(setting("HOST", { HOST: "::1" })).toBe("::1");
    expect(setting("HOST", { HOST: "localhost" })).toBe("localhost");
  });
});
