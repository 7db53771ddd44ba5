// The tRPC endpoint over real HTTP on 127.0.0.1, behind the console's own server wrapper, against a real
// SQLite file: what a browser on another site, a machine client and an oversized body each get.
import http from "node:http";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import superjson from "superjson";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AppRouter } from "../api/root";
import { userTenants, users } from "../../db/schema";
import { resolveDataHome } from "../config";
import { MemoryAuditSink } from "../runtime/audit/events";
import { createUser } from "../services/users/users";
import { serveFetch } from "../test-support/http-server";
import { tempDb } from "../test-support/temp-db";
import type { SessionUser } from "../auth";
import { allowedOrigins } from "./origin";
import { clientAddress, parseTrustedProxies } from "./peer";
import { handleTrpcRequest } from "./trpc-route";

const CONSOLE = "http://console.example:3000";
let t: ReturnType<typeof tempDb>;
let audit: MemoryAuditSink;
let admin: SessionUser;
let server: Awaited<ReturnType<typeof serveFetch>>;

beforeEach(async () => {
  t = tempDb();
  audit = new MemoryAuditSink();
  const a = await createUser(t.db, { email: "admin@x.io", role: "admin", password: "password1" });
  admin = { id: a.id, email: a.email, name: "", role: "admin" };
  const dataHome = resolveDataHome({ OMNIFORGE_HOME: t.dir });
  const proxies = parseTrustedProxies(undefined);
  server = await serveFetch((req) =>
    handleTrpcRequest(req, {
      allowedOrigins: allowedOrigins({ NEXTAUTH_URL: CONSOLE, OMNIFORGE_ALLOWED_ORIGINS: "https://ops.example" }),
      // As if the cookie named the admin: a bearer request gets no cookie session.
      context: async ({ bearer }) => ({ db: t.db, dataHome, audit, user: bearer ? null : admin, ip: clientAddress(req.headers, proxies) }),
    }),
  );
});
afterEach(async () => {
  await server.close();
  await t.cleanup();
});

const createBody = (email: string) => JSON.stringify({ json: { email, role: "admin", password: "password1" } });
const emails = async () => (await t.db.select().from(users)).map((u) => u.email);

function post(path: string, body: string, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
}

describe("state-changing requests from another site", () => {
  it("a form post from another origin is refused with 403 and audited as access_denied with the real address", async () => {
    const res = await post("/api/trpc/user.create", createBody("evil@x.io"), { origin: "https://evil.example", "x-forwarded-for": "203.0.113.9" });
    expect(res.status).toBe(403);
    expect(await emails()).not.toContain("evil@x.io");
    expect(audit.events).toMatchObject([
      {
        type: "access_denied",
        outcome: "refused",
        actor: { id: admin.id },
        details: { route: "/api/trpc", procedure: "user.create", reason: "origin https://evil.example is not the console's", ip: "127.0.0.1" },
      },
    ]);
  });

  it("a refused caller of one tenant is on that tenant's record, as their other rows are (#40)", async () => {
    await t.db.insert(userTenants).values({ userId: admin.id, tenant: "acme" });
    expect((await post("/api/trpc/user.create", createBody("evil@x.io"), { origin: "https://evil.example" })).status).toBe(403);
    expect(audit.events).toMatchObject([{ type: "access_denied", actor: { id: admin.id }, tenant: "acme" }]);
  });

  it("Sec-Fetch-Site: cross-site is refused even without an Origin, and Origin: null too", async () => {
    expect((await post("/api/trpc/user.create", createBody("a@x.io"), { "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await post("/api/trpc/user.create", createBody("b@x.io"), { origin: "null" })).status).toBe(403);
    expect(await emails()).toEqual(["admin@x.io"]);
    expect(audit.events.map((e) => e.type)).toEqual(["access_denied", "access_denied"]);
  });

  it("the console's own origin and the configured extra origins go through", async () => {
    expect((await post("/api/trpc/user.create", createBody("own@x.io"), { origin: CONSOLE, "sec-fetch-site": "same-origin" })).status).toBe(200);
    expect((await post("/api/trpc/user.create", createBody("ops@x.io"), { origin: "https://ops.example" })).status).toBe(200);
    expect(await emails()).toEqual(expect.arrayContaining(["own@x.io", "ops@x.io"]));
  });

  it("a bearer request is judged by its token alone: no origin refusal, and the cookie session does not count", async () => {
    const res = await post("/api/trpc/user.create", createBody("machine@x.io"), { origin: "https://evil.example", authorization: "Bearer not-a-known-token" });
    expect(res.status).toBe(401);
    expect(await emails()).not.toContain("machine@x.io");
    expect(audit.events.filter((e) => e.type === "access_denied")).toEqual([]);
  });

  it("queries (GET) are not state-changing and are answered", async () => {
    const res = await fetch(`${server.url}/api/trpc/user.me`, { headers: { origin: "https://evil.example" } });
    expect(res.status).toBe(200);
  });

  // Issue #35 item 10: the session's id stays in the encrypted cookie; a page's script never reads it.
  it("user.me says who is signed in, never the server-side session's id", async () => {
    admin = { ...admin, sid: "session-row-id-4711" };
    const text = await (await fetch(`${server.url}/api/trpc/user.me`)).text();
    // With the tenants and whether this is the global admin (issue #40), which the header asks for.
    expect(JSON.parse(text)).toEqual({ result: { data: { json: { id: admin.id, email: "admin@x.io", name: "", role: "admin", tenants: [], globalAdmin: true } } } });
    expect(text).not.toContain("session-row-id-4711");
  });
});

// Issue #35, as a new user met it: the console opened at http://127.0.0.1:3000 while NEXTAUTH_URL says localhost.
describe("a local console opened by another loopback name", () => {
  let local: Awaited<ReturnType<typeof serveFetch>>;
  beforeEach(async () => {
    const dataHome = resolveDataHome({ OMNIFORGE_HOME: t.dir });
    local = await serveFetch((req) =>
      handleTrpcRequest(req, {
        allowedOrigins: allowedOrigins({ NEXTAUTH_URL: "http://localhost:3000" }),
        context: async () => ({ db: t.db, dataHome, audit, user: admin, ip: "127.0.0.1" }),
      }),
    );
  });
  afterEach(() => local.close());

  const clientAt = (origin: string) =>
    createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${local.url}/api/trpc`, transformer: superjson, headers: { origin } })] });

  it("is the same origin: 127.0.0.1 and [::1] on the configured port save", async () => {
    for (const [origin, email] of [["http://127.0.0.1:3000", "v4@x.io"], ["http://[::1]:3000", "v6@x.io"], ["http://localhost:3000", "name@x.io"]]) {
      await clientAt(origin!).user.create.mutate({ email: email!, role: "viewer", password: "password1" });
    }
    expect(await emails()).toEqual(expect.arrayContaining(["v4@x.io", "v6@x.io", "name@x.io"]));
    expect(audit.events.filter((e) => e.type === "access_denied")).toEqual([]);
  });

  it("another port, another scheme or a look-alike host is still refused, in tRPC's own shape with what to set", async () => {
    for (const origin of ["http://127.0.0.1:3001", "https://127.0.0.1:3000", "http://localhost.evil.example:3000", "http://127.0.0.1.evil.example:3000"]) {
      const err = await clientAt(origin)
        .user.create.mutate({ email: "no@x.io", role: "viewer", password: "password1" })
        .then(() => null, (e: unknown) => e as TRPCClientError<AppRouter>);
      expect(err).toBeInstanceOf(TRPCClientError);
      // The console's client reads it (it was "Unable to transform response from server") and shows why.
      expect(err!.message).toBe(
        `Refused: origin ${origin} is not the console's. Open the console at http://localhost:3000, or, if ${origin} is this console's address too, add it to OMNIFORGE_ALLOWED_ORIGINS (or set NEXTAUTH_URL to it) and restart.`,
      );
      expect(err!.data).toMatchObject({ code: "FORBIDDEN", httpStatus: 403 });
    }
    expect(await emails()).not.toContain("no@x.io");
    expect(audit.events.filter((e) => e.type === "access_denied")).toHaveLength(4);
  });
});

/** A raw request, so the declared length can be larger than what is sent, or absent (chunked). */
function rawPost(path: string, headers: Record<string, string>, send: (req: http.ClientRequest) => void): Promise<{ status: number; body: string }> {
  return new Promise((ok, fail) => {
    const req = http.request(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers } }, (res) => {
      let body = "";
      res.on("data", (b: Buffer) => (body += b.toString()));
      res.on("end", () => ok({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", fail);
    send(req);
  });
}

describe("request body limits", () => {
  it("a declared length over 2 MiB is refused with 413 before the body is read", async () => {
    const r = await rawPost("/api/trpc/user.create", { "content-length": String(150 * 1024 * 1024) }, (req) => req.write("{"));
    expect(r.status).toBe(413);
    expect(r.body).toContain("limit here is 2097152 bytes");
  });

  it("a streamed body without a length is cut off once it passes 2 MiB", async () => {
    let sent = 0;
    const r = await rawPost("/api/trpc/user.create", { "transfer-encoding": "chunked" }, (req) => {
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      const pump = () => {
        while (sent < 8 * 1024 * 1024) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
        req.end();
      };
      req.on("response", () => (sent = Infinity));
      pump();
    });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({ error: { code: "PAYLOAD_TOO_LARGE" } });
  });

  it("an import may carry an archive's worth (in base64) and is judged by the import itself, not the 2 MiB cap", async () => {
    const base64 = Buffer.alloc(3 * 1024 * 1024).toString("base64");
    const body = JSON.stringify({ json: { layer: "project", fileName: "x.zip", base64, dryRun: true } });
    const res = await post("/api/trpc/skill.import", body, { origin: CONSOLE });
    expect(res.status).not.toBe(413);
    expect((await post("/api/trpc/user.create", body, { origin: CONSOLE })).status).toBe(413);
    // Without a session (a bearer request has none here) the common cap holds, whatever the URL names.
    expect((await post("/api/trpc/skill.import,user.me", body, { authorization: "Bearer x" })).status).toBe(413);
  });
});
