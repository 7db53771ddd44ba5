// A real OpenID provider for the tests (the certified `oidc-provider` package) on a free port of 127.0.0.1, with
// accounts the test controls (their email and groups are read at each sign-in, so a test can move a person out
// of a group), two confidential clients (the console's and another), and a person's way through its development
// login and consent pages as a browser would go, cookies included.
import http from "node:http";
import Provider from "oidc-provider";
import { listenLocal } from "../../../test-support/listen";

export interface TestAccount {
  email?: string;
  emailVerified?: boolean;
  name?: string;
  groups?: string[];
}

export interface TestIdp {
  issuer: string;
  clients: { console: { id: string; secret: string }; other: { id: string; secret: string } };
  accounts: Map<string, TestAccount>;
  /** From an authorization URL to the provider's redirect back (the URL with code and state), signed in as `account`. */
  signInAt(authorizationUrl: string, account: string): Promise<string>;
  close(): Promise<void>;
}

/** `groupsInIdToken: false`: the groups and the email only at the userinfo endpoint, as some providers answer them. */
export async function startTestIdp(redirectUri: () => string, opts: { groupsInIdToken?: boolean } = {}): Promise<TestIdp> {
  let handle: http.RequestListener = (_req, res) => void res.writeHead(503).end();
  const listening = await listenLocal(http.createServer((req, res) => handle(req, res)));
  const issuer = listening.url;
  const accounts = new Map<string, TestAccount>();
  const clients = { console: { id: "omniforge-console", secret: "console-secret-".padEnd(40, "c") }, other: { id: "another-app", secret: "other-secret-".padEnd(40, "o") } };
  const client = (c: { id: string; secret: string }) => ({
    client_id: c.id,
    client_secret: c.secret,
    redirect_uris: [redirectUri()],
    grant_types: ["authorization_code"],
    response_types: ["code"],
  });
  const provider = new Provider(issuer, {
    clients: [client(clients.console), client(clients.other)],
    cookies: { keys: ["test-idp-cookie-key-".padEnd(40, "k")] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "groups"] },
    // By default the groups are in the ID token, as Okta, Entra and Keycloak put them when asked.
    conformIdTokenClaims: opts.groupsInIdToken === false,
    findAccount: (_ctx: unknown, id: string) => {
      const a = accounts.get(id);
      if (!a) return undefined;
      return { accountId: id, claims: () => ({ sub: id, email: a.email, email_verified: a.emailVerified ?? true, name: a.name, groups: a.groups ?? [] }) };
    },
  });
  handle = provider.callback();
  return { issuer, clients, accounts, signInAt: (url, account) => walkSignIn(url, account), close: listening.close };
}

/** Follows the provider's redirects, posting its development login form (any account id) and its consent form. */
async function walkSignIn(start: string, account: string): Promise<string> {
  const jar = new Map<string, string>();
  const origin = new URL(start).origin;
  let next: { url: string; body?: URLSearchParams } = { url: start };
  for (let step = 0; step < 12; step++) {
    const res = await fetch(next.url, {
      method: next.body ? "POST" : "GET",
      body: next.body,
      redirect: "manual",
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const at = pair!.indexOf("=");
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const location = res.headers.get("location");
    if (location) {
      const to = new URL(location, next.url);
      if (to.origin !== origin) return to.toString();
      next = { url: to.toString() };
      continue;
    }
    const page = await res.text();
    if (res.status !== 200) throw new Error(`identity provider answered ${res.status}: ${page.slice(0, 300)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1];
    if (!action || !prompt) throw new Error(`no form on the identity provider's page: ${page.slice(0, 300)}`);
    const body = new URLSearchParams({ prompt });
    if (prompt === "login") body.set("login", account), body.set("password", "any");
    next = { url: new URL(action, next.url).toString(), body };
  }
  throw new Error("the identity provider never sent the browser back");
}
