// Every route but tRPC's (trpc-unreachable.test.ts) when the database does not answer (issue #38): the catalog, the
// sync report and OTLP intake over real HTTP on 127.0.0.1, wrapped as their route modules wrap them, the console's
// database a real PostgreSQL pool on a port nothing listens on; next-auth's credentials sign-in and sign-out through
// the console's own bootstrap, whose DATABASE_URL names that port. Each gets one 503 with the one line; neither the
// answer nor the log holds the driver's query or what it was given (a token's hash, an email, a session's id).
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { postgresDb } from "../../db/client";
import { postgresPool } from "../../db/dialect";
import { resolveDataHome } from "../config";
import { MemoryAuditSink } from "../runtime/audit/events";
import { hashToken } from "../services/tokens/tokens";
import { serveFetch } from "../test-support/http-server";
import { handleCatalogRequest, handleSyncReport } from "./catalog-route";
import { answeringDatabaseDown, DATABASE_UNREACHABLE, NEXT_AUTH_BODY } from "./database-down";
import { handleOtlpRequest } from "./otel-route";

// Port 1 of 127.0.0.1: nothing listens there. Set before anything reads the settings, as the console's environment.
const NOWHERE = "postgres://postgres@127.0.0.1:1/omniforge";
const dir = await vi.hoisted(async () => {
  const { tmpdir } = await import("node:os");
  const home = `${tmpdir()}/omniforge-down-${process.pid}-${Date.now()}`;
  vi.stubEnv("OMNIFORGE_HOME", home);
  vi.stubEnv("DATABASE_URL", "postgres://postgres@127.0.0.1:1/omniforge");
  vi.stubEnv("OMNIFORGE_DEMO", "0");
  vi.stubEnv("NEXTAUTH_SECRET", "a-secret-of-this-test-".padEnd(40, "x"));
  return home;
});

const ONE_LINE = "The database does not answer; the console reconnects by itself when it is back. Try again shortly.";
const TOKEN = "omf_token-that-must-not-show-3b7d";
const EMAIL = "person-who-must-not-show@example.com";
const SID = "session-id-that-must-not-show-5e1a";
const logged: unknown[][] = [];
const consoleError = console.error;
let db: ReturnType<typeof postgresDb>;
let server: Awaited<ReturnType<typeof serveFetch>>;

beforeAll(async () => {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  db = postgresDb(NOWHERE, dir);
  const dataHome = resolveDataHome({ OMNIFORGE_HOME: dir });
  const audit = new MemoryAuditSink();
  console.error = (...args: unknown[]) => void logged.push(args);
  const routes: Record<string, (req: Request) => Promise<Response>> = {
    "/api/catalog": answeringDatabaseDown((req: Request) => handleCatalogRequest(req, { db, dataHome, audit })),
    "/api/catalog/deployments": answeringDatabaseDown((req: Request) => handleSyncReport(req, { db, audit })),
    "/api/otel/v1/logs": answeringDatabaseDown((req: Request) => handleOtlpRequest(req, "logs", { db, audit })),
  };
  server = await serveFetch((req) => routes[new URL(req.url).pathname]!(req));
});
afterAll(async () => {
  console.error = consoleError;
  await server.close();
  await postgresPool(db)!.end();
  fs.rmSync(dir, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

async function expectUnavailable(res: Response): Promise<void> {
  const text = await res.text();
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toBe("5");
  expect(JSON.parse(text)).toEqual({ error: { code: DATABASE_UNREACHABLE, message: ONE_LINE } });
}

const bearer = { authorization: `Bearer ${TOKEN}` };

describe("the routes beside tRPC while the database does not answer", () => {
  it("the catalog, the sync report and OTLP intake answer 503 with the one line, not the query with the token's hash", async () => {
    await expectUnavailable(await fetch(`${server.url}/api/catalog`, { headers: bearer }));
    await expectUnavailable(await fetch(`${server.url}/api/catalog/deployments`, { method: "POST", headers: { ...bearer, "content-type": "application/json" }, body: "{}" }));
    await expectUnavailable(await fetch(`${server.url}/api/otel/v1/logs`, { method: "POST", headers: { ...bearer, "content-type": "application/json" }, body: "{}" }));
  });

  it("a credentials sign-in answers 503, and what next-auth would put in the error page's address is the one line", async () => {
    const { authOptionsFor } = await import("../auth");
    const provider = authOptionsFor("127.0.0.1").providers[0] as unknown as { options: { authorize(c: Record<string, string>, req: unknown): Promise<unknown> } };
    let thrown: unknown;
    // As next-auth's callback does: it catches what authorize throws and answers with a redirect naming its message.
    const signIn = answeringDatabaseDown(async (_req: Request) => {
      try {
        await provider.options.authorize({ email: EMAIL, password: "a password" }, { headers: {} });
        return new Response("signed in");
      } catch (e) {
        thrown = e;
        return new Response(null, { status: 302, headers: { location: `/api/auth/error?error=${encodeURIComponent((e as Error).message)}` } });
      }
    }, NEXT_AUTH_BODY);
    const res = await signIn(new Request("http://console.example:3000/api/auth/callback/credentials", { method: "POST" }));
    expect([res.status, res.headers.get("retry-after")]).toEqual([503, "5"]);
    // What next-auth/react's signIn reads (it failed on any body without a url): the login form then shows the line.
    const { url } = (await res.json()) as { url: string };
    expect(new URL(url).searchParams.get("error")).toBe(ONE_LINE);
    expect(url).not.toContain(encodeURIComponent(EMAIL));
    expect((thrown as Error).message).toBe(ONE_LINE);
  });

  it("a sign-out, whose event ends the session's row, answers 503 and logs the one line, not the session's id", async () => {
    const { authOptionsFor } = await import("../auth");
    const signOut = authOptionsFor("127.0.0.1").events!.signOut!;
    let thrown: unknown;
    // As next-auth's sign-out does: it logs what the event throws and answers as if signed out.
    const answer = answeringDatabaseDown(async () => {
      await Promise.resolve(signOut({ token: { sid: SID }, session: null } as never)).catch((e: unknown) => (thrown = e));
      return new Response(null, { status: 302, headers: { location: "/login" } });
    });
    await expectUnavailable(await answer());
    expect((thrown as Error).message).toBe(ONE_LINE);
  });

  it("the login page, reading the visitor's session, gets the one line to show, and logs it once as one line", async () => {
    const { pageVisitor } = await import("../auth");
    const { encode } = await import("next-auth/jwt");
    const token = await encode({ token: { sub: "ann", sid: SID }, secret: "a-secret-of-this-test-".padEnd(40, "x"), maxAge: 3600 });
    const before = logged.length;
    expect(await pageVisitor("/login", new Headers({ cookie: `next-auth.session-token=${token}` }))).toEqual({ user: null, databaseDown: ONE_LINE });
    expect(logged.slice(before)).toEqual([[`[omniforge] /login: ${ONE_LINE}`]]);
  });

  it("nothing the driver was given reaches the server's log", () => {
    const log = JSON.stringify(logged.map((args) => args.map(String)));
    for (const secret of [hashToken(TOKEN), TOKEN, EMAIL, SID]) expect(log).not.toContain(secret);
    expect(log).not.toMatch(/Failed query/);
  });
});
