// The console's server in front of Next: methods a fetch Request cannot carry are answered, not failed.
import http from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listenLocal } from "../test-support/listen";
import { createConsoleServer } from "./node-server";

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
