// next-auth v4: Credentials provider, JWT sessions. The token carries only the user id; role and the
// disabled flag are read from the database on every request (server/api/trpc.ts, requireUser), so a
// demoted or disabled user loses access at once instead of when the token expires.
import type { NextAuthOptions } from "next-auth";
import { getServerSession } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { headers } from "next/headers";
import { env } from "../env";
import { clientAddress, parseTrustedProxies, type TrustedProxies } from "./http/peer";
import { auditSinkFor } from "./services/audit";
import { attemptLogin } from "./services/auth/login";
import { ensureReady } from "./services/bootstrap";
import { findUserById } from "./services/users/users";
import type { Role } from "../db/schema";

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
}

let proxies: TrustedProxies | undefined;
/** The client's address: the socket peer, or what a trusted proxy forwarded (server/http/peer.ts). */
export function clientIp(h: Headers | Record<string, string | string[] | undefined> | undefined): string {
  proxies ??= parseTrustedProxies(env.OMNIFORGE_TRUSTED_PROXIES);
  return clientAddress(h, proxies);
}

export const authOptions: NextAuthOptions = {
  session: { strategy: "jwt", maxAge: 8 * 60 * 60 },
  pages: { signIn: "/login" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, req) {
        const { db } = await ensureReady();
        const email = String(credentials?.email ?? "").slice(0, 320);
        const password = String(credentials?.password ?? "").slice(0, 1024);
        if (!email || !password) throw new Error("Enter your email and password.");
        const r = await attemptLogin(db, auditSinkFor(db), { email, password, ip: clientIp(req?.headers) });
        // A thrown message reaches the login page as `error`; returning null would only say "CredentialsSignin".
        if (!r.ok) throw new Error(r.message);
        return { id: r.user.id, email: r.user.email, name: r.user.name };
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) token.sub = user.id;
      return token;
    },
    session({ session, token }) {
      if (session.user && token.sub) (session.user as { id?: string }).id = token.sub;
      return session;
    },
  },
};

/** The signed-in, enabled user with their current role, or null. */
export async function getSessionUser(): Promise<SessionUser | null> {
  const session = await getServerSession(authOptions);
  const id = (session?.user as { id?: string } | undefined)?.id;
  if (!id) return null;
  const { db } = await ensureReady();
  const u = findUserById(db, id);
  if (!u || u.disabled) return null;
  return { id: u.id, email: u.email, name: u.name, role: u.role };
}

export async function requestIp(): Promise<string> {
  return clientIp(await headers());
}
