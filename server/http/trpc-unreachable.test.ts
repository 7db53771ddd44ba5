// The tRPC endpoint when the database does not answer while the caller's session is read (issue #38): over real HTTP
// on 127.0.0.1, the context reading the session through the real PostgreSQL driver from a port nothing listens on. A
// person gets one 503 with one plain line, for a query, a mutation and a refused cross-site call alike; never the
// query the driver failed on nor its parameters (the session's id).
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresDb } from "../../db/client";
import { postgresPool } from "../../db/dialect";
import { resolveDataHome } from "../config";
import { MemoryAuditSink } from "../runtime/audit/events";
import { sessionUser } from "../services/auth/sessions";
import { serveFetch } from "../test-support/http-server";
import { allowedOrigins } from "./origin";
import { handleTrpcRequest } from "./trpc-route";

const CONSOLE = "http://console.example:3000";
const SID = "session-id-that-must-not-show-9f2c";
let dir: string;
let db: ReturnType<typeof postgresDb>;
let server: Awaited<ReturnType<typeof serveFetch>>;
const errors: unknown[][] = [];
const consoleError = console.error;

/** A port of 127.0.0.1 that was free a moment ago and that nothing here listens on. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-unreachable-"));
  db = postgresDb(`postgres://postgres@127.0.0.1:${await closedPort()}/omniforge`, dir);
  const dataHome = resolveDataHome({ OMNIFORGE_HOME: dir });
  console.error = (...args: unknown[]) => void errors.push(args);
  server = await serveFetch((req) =>
    handleTrpcRequest(req, {
      allowedOrigins: allowedOrigins({ NEXTAUTH_URL: CONSOLE }),
      // As the console's route: the cookie's session is looked up in the database before any procedure runs.
      context: async () => ({ db, dataHome, audit: new MemoryAuditSink(), user: await sessionUser(db, { userId: "u-1", sid: SID }), ip: "127.0.0.1" }),
    }),
  );
});
afterAll(async () => {
  console.error = consoleError;
  await server.close();
  await postgresPool(db)!.end();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ONE_LINE = "The database does not answer; the console reconnects by itself when it is back. Try again shortly.";

async function expectUnavailable(res: Response): Promise<void> {
  const text = await res.text();
  expect(res.status).toBe(503);
  expect(text).toContain(ONE_LINE);
  expect(text).not.toMatch(/select|auth_sessions|Failed query/i);
  expect(text).not.toContain(SID);
}

describe("a database that does not answer while the session is read", () => {
  it("a query gets 503 and the one line, not the driver's query and parameters", async () => {
    await expectUnavailable(await fetch(`${server.url}/api/trpc/user.me`));
  });

  it("a mutation and a batch of calls get the same", async () => {
    const post = (p: string, body: string) => fetch(`${server.url}${p}`, { method: "POST", headers: { "content-type": "application/json", origin: CONSOLE }, body });
    await expectUnavailable(await post("/api/trpc/playground.create", JSON.stringify({ json: { title: "t", provider: "offline" } })));
    await expectUnavailable(await fetch(`${server.url}/api/trpc/user.me,playground.list?batch=1&input=${encodeURIComponent("{}")}`));
  });

  it("a cross-site call, whose refusal reads the session to audit it, gets 503 instead of a crash", async () => {
    const res = await fetch(`${server.url}/api/trpc/user.create`, { method: "POST", headers: { "content-type": "application/json", origin: "https://evil.example" }, body: "{}" });
    await expectUnavailable(res);
  });

  it("nothing with the session's id reaches the server's log", () => {
    expect(JSON.stringify(errors.map((args) => args.map(String)))).not.toContain(SID);
  });
});
