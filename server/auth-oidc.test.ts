import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import type http from "node:http";
import NextAuth from "next-auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, userIdentities, users } from "../db/schema";
import { createConsoleServer } from "./http/node-server";
import { listenLocal } from "./test-support/listen";
import { startTestIdp, type TestIdp } from "./services/auth/test-support/oidc";
import { testDatabaseEnv } from "../db/test-support/postgres-run";

// Single sign-on end to end over HTTP: a real OpenID provider on 127.0.0.1 (oidc-provider), and the console's
// next-auth handler (its Node adapter) with the options the route gives it, behind the console's own server on 127.0.0.1. A client here is a browser: a
// cookie jar, redirects followed by hand.
const home = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-oidc-"));
let auth: typeof import("./auth");
let db: import("../db/client").Db;
let flushAudit: (db: import("../db/client").Db) => Promise<void>;
let updateUser: typeof import("./services/users/users").updateUser;
let idp: TestIdp;
let console_: { url: string; close(): Promise<void> };

beforeAll(async () => {
  console_ = await listenLocal(createConsoleServer((req, res) => void nextAuthNode(req, res)));
  idp = await startTestIdp(() => `${console_.url}/api/auth/callback/oidc`);
  Object.assign(process.env, {
    OMNIFORGE_HOME: home,
    OMNIFORGE_DEMO: "0",
    OMNIFORGE_AUDIT_STDOUT: "0",
    NEXTAUTH_SECRET: "test-secret-".padEnd(40, "x"),
    NEXTAUTH_URL: console_.url,
    OMNIFORGE_OIDC_ISSUER: idp.issuer,
    OMNIFORGE_OIDC_CLIENT_ID: idp.clients.console.id,
    OMNIFORGE_OIDC_CLIENT_SECRET: idp.clients.console.secret,
    OMNIFORGE_OIDC_ROLE_MAP: "admins=admin, eng=author",
    ...testDatabaseEnv(),
  });
  auth = await import("./auth");
  ({ db } = await (await import("./services/bootstrap")).ensureReady());
  ({ flushAudit } = await import("./services/audit"));
  ({ updateUser } = await import("./services/users/users"));
});
afterAll(async () => {
  await console_?.close();
  await idp?.close();
  await (await import("./services/catalog/catalog")).closeAllIndexes();
  fs.rmSync(home, { recursive: true, force: true });
});

/** next-auth's Node handler, given the request as Next's API routes shape it (query, parsed form body, cookies). */
async function nextAuthNode(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", console_.url);
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString()));
  const cookies = Object.fromEntries((req.headers.cookie ?? "").split(/;\s*/).filter(Boolean).map((c) => [c.slice(0, c.indexOf("=")), decodeURIComponent(c.slice(c.indexOf("=") + 1))]));
  const nextauth = url.pathname.replace(/^\/api\/auth\/?/, "").split("/").filter(Boolean);
  const apiRes = Object.assign(res, {
    status: (code: number) => ((res.statusCode = code), apiRes),
    send: (b: unknown) => void res.end(typeof b === "string" ? b : JSON.stringify(b)),
    json: (b: unknown) => void res.setHeader("content-type", "application/json").end(JSON.stringify(b)),
  });
  const apiReq = { query: { ...Object.fromEntries(url.searchParams), nextauth }, body, cookies, headers: req.headers, method: req.method };
  await NextAuth(apiReq as never, apiRes as never, auth.authOptionsFor(auth.clientIp(req.headers)));
}

class Browser {
  jar = new Map<string, string>();
  async go(url: string, body?: URLSearchParams): Promise<Response> {
    const res = await fetch(url, {
      method: body ? "POST" : "GET",
      body,
      redirect: "manual",
      headers: { cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(";");
      const at = pair!.indexOf("=");
      const expired = attrs.some((a) => /expires=/i.test(a) && new Date(a.split("=")[1]!).getTime() < Date.now());
      if (expired || at === pair!.length - 1) this.jar.delete(pair!.slice(0, at));
      else this.jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return res;
  }
  /** The "Sign in with …" button: next-auth's sign-in POST, answered with a redirect to the provider. */
  async startSignIn(): Promise<string> {
    const { csrfToken } = (await (await this.go(`${console_.url}/api/auth/csrf`)).json()) as { csrfToken: string };
    const res = await this.go(`${console_.url}/api/auth/signin/oidc`, new URLSearchParams({ csrfToken, callbackUrl: `${console_.url}/skills` }));
    return res.headers.get("location")!;
  }
  /** Where the console's callback sends the browser, given the provider's redirect back. */
  async finish(back: string): Promise<string> {
    let to = (await this.go(back)).headers.get("location") ?? "";
    // A refusal passes through next-auth's error route, which sends the browser on to the login page.
    while (to.startsWith(`${console_.url}/api/auth/`)) to = (await this.go(to)).headers.get("location") ?? "";
    return to;
  }
  async signIn(account: string): Promise<string> {
    const to = await this.startSignIn();
    expect(to.startsWith(idp.issuer)).toBe(true);
    return this.finish(await idp.signInAt(to, account));
  }
  user() {
    return auth.sessionUserOfRequest(new Headers({ cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ") }));
  }
}

/** The error code of a redirect to the login page (what it shows a fixed text for), or what the redirect was instead. */
const refusal = (to: string) => {
  const u = new URL(to, console_.url);
  return u.pathname === "/login" ? u.searchParams.get("error") : `no refusal but ${to}`;
};
const userOfSubject = async (subject: string) => {
  const link = (await db.select().from(userIdentities).where(and(eq(userIdentities.issuer, idp.issuer), eq(userIdentities.subject, subject))).limit(1))[0];
  return link && (await db.select().from(users).where(eq(users.id, link.userId)).limit(1))[0];
};
const auditOf = async (type: string) => {
  await flushAudit(db);
  return (await db.select().from(auditEvents).where(eq(auditEvents.type, type))).map((r) => ({ ...r, details: JSON.parse(r.details ?? "{}") }));
};

describe("sign-in through the OpenID provider", () => {
  it("creates the user on first sign-in with the role of their group, opens our session and audits the provider's subject", async () => {
    idp.accounts.set("sub-ada", { email: "Ada@Corp.example", name: "Ada", groups: ["admins", "staff"] });
    const b = new Browser();
    expect(await b.signIn("sub-ada")).toBe(`${console_.url}/skills`);
    expect(await b.user()).toMatchObject({ email: "ada@corp.example", name: "Ada", role: "admin" });
    expect((await userOfSubject("sub-ada"))).toMatchObject({ email: "ada@corp.example", role: "admin", disabled: false });
    const login = (await auditOf("login")).find((e) => e.details.subject === "sub-ada");
    expect(login).toMatchObject({ actorEmail: "ada@corp.example", outcome: "ok", details: { method: "oidc", issuer: idp.issuer, ip: "127.0.0.1" } });
  });

  it("sets the role from the groups at every sign-in: out of the admins' group, the next sign-in is no longer admin", async () => {
    idp.accounts.set("sub-bo", { email: "bo@corp.example", groups: ["admins"] });
    expect(await new Browser().signIn("sub-bo")).toBe(`${console_.url}/skills`);
    expect((await userOfSubject("sub-bo"))?.role).toBe("admin");
    idp.accounts.set("sub-bo", { email: "bo@corp.example", groups: ["eng"] });
    const later = new Browser();
    await later.signIn("sub-bo");
    expect(await later.user()).toMatchObject({ email: "bo@corp.example", role: "author" });
    // No mapped group at all: the lowest role, not a refusal (who may sign in is the provider's decision).
    idp.accounts.set("sub-bo", { email: "bo@corp.example", groups: [] });
    const last = new Browser();
    await last.signIn("sub-bo");
    expect(await last.user()).toMatchObject({ role: "viewer" });
    const changes = (await auditOf("user_updated")).filter((e) => e.details.subject === "sub-bo");
    expect(changes.map((e) => [e.details.before.role, e.details.after.role])).toEqual([["admin", "author"], ["author", "viewer"]]);
  });

  it("refuses a user disabled in the console, and a disabled user's session ends at once", async () => {
    idp.accounts.set("sub-cy", { email: "cy@corp.example", groups: ["eng"] });
    const first = new Browser();
    await first.signIn("sub-cy");
    expect(await first.user()).toMatchObject({ role: "author" });
    await updateUser(db, (await userOfSubject("sub-cy"))!.id, { disabled: true });
    expect(await first.user()).toBeNull();
    const again = new Browser();
    expect(refusal(await again.signIn("sub-cy"))).toBe("disabled");
    expect(await again.user()).toBeNull();
    expect((await auditOf("login_failed")).find((e) => e.details.subject === "sub-cy")).toMatchObject({ outcome: "refused", details: { reason: "disabled" } });
  });

  it("refuses a forged state, and a state started in another browser", async () => {
    idp.accounts.set("sub-di", { email: "di@corp.example", groups: ["admins"] });
    const b = new Browser();
    const back = new URL(await idp.signInAt(await b.startSignIn(), "sub-di"));
    back.searchParams.set("state", "forged-" + back.searchParams.get("state"));
    expect(refusal(await b.finish(back.toString()))).toBe("OAuthCallback");
    expect(await b.user()).toBeNull();
    // A code and state meant for one browser, replayed in another (login CSRF): the other has no state cookie.
    const victim = new Browser();
    const stolen = await idp.signInAt(await new Browser().startSignIn(), "sub-di");
    expect(refusal(await victim.finish(stolen))).toBe("OAuthCallback");
    expect(await victim.user()).toBeNull();
    expect((await userOfSubject("sub-di"))).toBeUndefined();
  });

  it("refuses a code the provider issued to another client", async () => {
    idp.accounts.set("sub-ed", { email: "ed@corp.example", groups: ["admins"] });
    const b = new Browser();
    const ours = new URL(await b.startSignIn());
    ours.searchParams.set("client_id", idp.clients.other.id);
    const back = await idp.signInAt(ours.toString(), "sub-ed");
    expect(new URL(back).searchParams.get("code")).toBeTruthy();
    expect(refusal(await b.finish(back))).toBe("OAuthCallback");
    expect(await b.user()).toBeNull();
    expect((await userOfSubject("sub-ed"))).toBeUndefined();
  });

  it("refuses a password at the credentials endpoint when password sign-in is off, though the password is right", async () => {
    const { createUser } = await import("./services/users/users");
    await createUser(db, { email: "pat@corp.example", role: "author", password: "right-password" });
    const attempt = async () => {
      const b = new Browser();
      const { csrfToken } = (await (await b.go(`${console_.url}/api/auth/csrf`)).json()) as { csrfToken: string };
      const res = await b.go(`${console_.url}/api/auth/callback/credentials`, new URLSearchParams({ csrfToken, email: "pat@corp.example", password: "right-password" }));
      return { to: res.headers.get("location") ?? "", user: await b.user() };
    };
    process.env.OMNIFORGE_PASSWORD_LOGIN = "off";
    try {
      const off = await attempt();
      expect(off.user).toBeNull();
      expect(new URL(off.to, console_.url).searchParams.get("error")).toMatch(/Password sign-in is turned off/);
    } finally {
      delete process.env.OMNIFORGE_PASSWORD_LOGIN;
    }
    expect((await attempt()).user).toMatchObject({ email: "pat@corp.example" });
  });

  it("reads the groups and email from the userinfo answer when the provider keeps them out of the ID token", async () => {
    const lean = await startTestIdp(() => `${console_.url}/api/auth/callback/oidc`, { groupsInIdToken: false });
    const before = process.env.OMNIFORGE_OIDC_ISSUER;
    process.env.OMNIFORGE_OIDC_ISSUER = lean.issuer;
    try {
      lean.accounts.set("sub-fay", { email: "fay@corp.example", groups: ["eng"] });
      const b = new Browser();
      const to = await b.startSignIn();
      expect(to.startsWith(lean.issuer)).toBe(true);
      await b.finish(await lean.signInAt(to, "sub-fay"));
      expect(await b.user()).toMatchObject({ email: "fay@corp.example", role: "author" });
    } finally {
      process.env.OMNIFORGE_OIDC_ISSUER = before;
      await lean.close();
    }
  });
});

describe("the provider's callback route, per address (issue 35)", () => {
  it("is counted before next-auth reads it: past ten times the sign-in limit an address lands on the login page, audited; others go on", async () => {
    const { GET } = await import("../app/api/auth/[...nextauth]/route");
    const { oidcCallbackRefusal } = await import("./auth-oidc");
    const { setting } = await import("../env");
    const limit = 10 * setting("OMNIFORGE_LOGIN_LIMIT_PER_MINUTE");
    const callback = ["callback", "oidc"];
    const url = `${console_.url}/api/auth/callback/oidc?code=x&state=y`;
    // Another next-auth path is not counted, however often it is asked.
    for (let i = 0; i < limit + 5; i++) expect(await oidcCallbackRefusal(["csrf"], "10.9.9.9", url)).toBeNull();
    for (let i = 0; i < limit; i++) expect(await oidcCallbackRefusal(callback, "10.9.9.9", url)).toBeNull();
    // The route itself, as Next calls it: the peer address is the one the console's server stamps.
    const { NextRequest } = await import("next/server");
    const res = await GET(new NextRequest(url, { headers: { "x-omniforge-peer": "10.9.9.9" } }), { params: Promise.resolve({ nextauth: callback }) });
    expect(res.status).toBe(303);
    expect(refusal(res.headers.get("location")!)).toBe("rate_limited");
    expect(await oidcCallbackRefusal(callback, "10.9.9.10", url)).toBeNull();
    expect((await auditOf("login_failed")).filter((e: { details: { reason?: string } }) => e.details.reason === "rate_limited")).toEqual([
      expect.objectContaining({ outcome: "refused", details: { reason: "rate_limited", method: "oidc", ip: "10.9.9.9" } }),
    ]);
  });
});
