// next-auth v4: Credentials provider and, when configured, the OpenID provider (auth-oidc.ts); JWT sessions. The token carries the user id and the id of a server-side
// session record (server/services/auth/sessions.ts); on every request the record must be open and the
// user enabled, and role is read from the database, so a sign-out, a disabled user or an admin's "sign out
// everywhere" ends every copy of the cookie at once instead of when the token expires.
import type { NextAuthOptions } from "next-auth";
import { decode, getToken, type JWT, type JWTDecodeParams } from "next-auth/jwt";
import { RequestCookies } from "next/dist/compiled/@edge-runtime/cookies";
import CredentialsProvider from "next-auth/providers/credentials";
import { cookies, headers } from "next/headers";
import { env, setting } from "../env";
import { databaseDownSeen } from "./http/database-down";
import { databaseUnreachableMessage } from "../db/dialect";
import { clientAddress, parseTrustedProxies, type TrustedProxies } from "./http/peer";
import { auditSinkFor } from "./services/audit";
import { attemptLogin } from "./services/auth/login";
import { ensureReady } from "./services/bootstrap";
import { OIDC_PROVIDER_ID, completeOidcSignIn, oidcProvider } from "./auth-oidc";
import { oidcConfig } from "./services/auth/oidc-settings";
import { endSession, sessionOwner, sessionUser, startSession } from "./services/auth/sessions";
import { SESSION_IDLE_MAX_MS } from "./domain/limits";
import type { Role } from "../db/schema";

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  /** The server-side session of this request (absent for callers built in tests). */
  sid?: string;
  /** The user's tenants as the session's read found them; absent (callers built in tests), each door reads them. */
  tenants?: readonly string[];
}

let proxies: TrustedProxies | undefined;
/** The client's address: the socket peer, or what a trusted proxy forwarded (server/http/peer.ts). */
export function clientIp(h: Headers | Record<string, string | string[] | undefined> | undefined): string {
  proxies ??= parseTrustedProxies(env.OMNIFORGE_TRUSTED_PROXIES);
  return clientAddress(h, proxies);
}

const credentials = CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, req) {
        const email = String(credentials?.email ?? "").slice(0, 320);
        const password = String(credentials?.password ?? "").slice(0, 1024);
        if (!email || !password) throw new Error("Enter your email and password.");
        const ip = clientIp(req?.headers);
        let r: Awaited<ReturnType<typeof attemptLogin>>;
        let sid: string;
        try {
          const { db } = await ensureReady();
          r = await attemptLogin(db, auditSinkFor(db), { email, password, ip });
          sid = r.ok ? await startSession(db, r.user.id, ip) : "";
        } catch (e) {
          // next-auth puts a thrown message into the error page's address: never the driver's (the email, the new session's id).
          throw databaseDownSeen(e);
        }
        // A thrown message reaches the login page as `error`; returning null would only say "CredentialsSignin".
        if (!r.ok) throw new Error(r.message);
        return { id: r.user.id, email: r.user.email, name: r.user.name, sid };
      },
    });

const authOptions: NextAuthOptions = {
  session: { strategy: "jwt", maxAge: SESSION_IDLE_MAX_MS / 1000 },
  // Errors (a refused provider sign-in, a forged state) land on the login page, which shows a fixed text per code.
  pages: { signIn: "/login", error: "/login" },
  providers: [credentials],
  callbacks: {
    jwt({ token, user }) {
      if (user) {
        token.sub = user.id;
        token.sid = (user as { sid?: string }).sid;
      }
      return token;
    },
    session({ session, token }) {
      if (session.user && token.sub) (session.user as { id?: string }).id = token.sub;
      return session;
    },
  },
  events: {
    // next-auth's sign-out (POST with its CSRF token) hands over the decoded cookie: end its record.
    async signOut({ token }) {
      const sid = typeof token?.sid === "string" ? token.sid : undefined;
      if (!sid) return;
      try {
        const { db } = await ensureReady();
        const owner = await sessionOwner(db, sid);
        if (!(await endSession(db, sid, "sign_out")) || !owner) return;
        auditSinkFor(db).record({ type: "logout", actor: owner, outcome: "ok", details: { ip: await requestIp() } });
      } catch (e) {
        // next-auth logs what an event throws: the one line, not the query with the session's id.
        throw databaseDownSeen(e);
      }
    },
  },
};

/**
 * next-auth's options for one request from `ip` (the OpenID sign-in has no request of its own to read it from).
 * The settings are read per request, as setting() always is.
 */
export function authOptionsFor(ip: string): NextAuthOptions {
  const oidc = oidcConfig();
  return {
    ...authOptions,
    providers: oidc ? [credentials, oidcProvider(oidc)] : [credentials],
    callbacks: {
      ...authOptions.callbacks,
      signIn({ user, account, profile }) {
        if (account?.provider !== OIDC_PROVIDER_ID) return true;
        if (!oidc) return false;
        return completeOidcSignIn(oidc, user, (profile ?? {}) as Record<string, unknown>, ip);
      },
    },
  };
}

/** What the login page offers: the password form unless turned off, and the OpenID provider's button when configured. */
export function signInChoices(): { password: boolean; provider: { id: string; name: string } | null } {
  const oidc = oidcConfig();
  return { password: setting("OMNIFORGE_PASSWORD_LOGIN"), provider: oidc ? { id: OIDC_PROVIDER_ID, name: oidc.name } : null };
}

/** The user of the request's session cookie, if its server-side session is open and the user enabled. */
export async function getSessionUser(): Promise<SessionUser | null> {
  return sessionUserOf(await cookies());
}

/** What a page knows of its visitor: the user (or no one), or that the database does not answer (its one line). */
export type PageVisitor = { user: SessionUser | null; databaseDown?: undefined } | { user: null; databaseDown: string };

/**
 * getSessionUser for a page (`headers`: a request met outside Next's scope). While the database does not answer,
 * the one line, logged once as one line naming the page: thrown, Next logged drizzle's failed query with its
 * parameters (the session's id) and answered 500.
 */
export async function pageVisitor(page: string, headers?: Headers): Promise<PageVisitor> {
  try {
    return { user: headers ? await sessionUserOfRequest(headers) : await getSessionUser() };
  } catch (e) {
    const line = databaseUnreachableMessage(e);
    if (!line) throw e;
    console.error(`[omniforge] ${page}: ${line}`);
    return { user: null, databaseDown: line };
  }
}

/** The same for a request met outside Next's request scope: its Cookie header, parsed as Next parses it. */
export async function sessionUserOfRequest(headers: Headers): Promise<SessionUser | null> {
  const cookie = headers.get("cookie");
  const known = cookie ? claimsByCookie.get(cookie) : undefined;
  if (known && unexpired(known)) return userOfClaims(known);
  const token = await claimsOf(new RequestCookies(headers));
  if (cookie && token && unexpired(token)) {
    if (claimsByCookie.size >= DECODED_MAX) claimsByCookie.delete(claimsByCookie.keys().next().value!);
    claimsByCookie.set(cookie, token);
  }
  return userOfClaims(token);
}

async function sessionUserOf(cookieJar: { getAll(): { name: string; value: string }[] }): Promise<SessionUser | null> {
  return userOfClaims(await claimsOf(cookieJar));
}

function claimsOf(cookieJar: { getAll(): { name: string; value: string }[] }): Promise<JWT | null> {
  // The token is read here rather than through the session callback, so the session id never reaches
  // the browser's /api/auth/session answer. No headers: a Bearer header must not count as a session.
  return getToken({ req: { cookies: cookieJar, headers: {} } as never, secret: setting("NEXTAUTH_SECRET"), decode: decodeOnce });
}

async function userOfClaims(token: JWT | null): Promise<SessionUser | null> {
  if (!token?.sub) return null;
  const { db } = await ensureReady();
  return sessionUser(db, { userId: token.sub, sid: typeof token.sid === "string" ? token.sid : undefined });
}

// A browser sends the same Cookie header with every call, and it yields the same claims until they expire: finding
// the session cookie in it (next-auth's getToken, the cookie parser, the secret checked against the environment's
// schema) was a tenth of a tRPC call's CPU under load. Only the claims are kept; the session's row is read each time.
const claimsByCookie = new Map<string, JWT>();

// Decrypting the cookie (a key derivation and AES-GCM) was a tenth of a request's CPU; a cookie decrypts to the
// same claims every time, so they are kept until the token expires. Whether its session is still open is asked
// of the database on every request all the same (sessionUser).
const decoded = new Map<string, JWT>();
const DECODED_MAX = 1000;
const unexpired = (claims: JWT) => typeof claims.exp === "number" && claims.exp * 1000 > Date.now();
async function decodeOnce(params: JWTDecodeParams): Promise<JWT | null> {
  const token = params.token;
  if (!token) return null;
  const hit = decoded.get(token);
  if (hit && unexpired(hit)) return hit;
  decoded.delete(token);
  const payload = await decode(params);
  if (payload && typeof payload.exp === "number") {
    if (decoded.size >= DECODED_MAX) decoded.delete(decoded.keys().next().value!);
    decoded.set(token, payload);
  }
  return payload;
}

export async function requestIp(): Promise<string> {
  return clientIp(await headers());
}
