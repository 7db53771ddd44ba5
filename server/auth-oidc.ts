// next-auth's side of single sign-on: the generic OpenID provider built from OMNIFORGE_OIDC_* (discovery, a
// confidential client, state + PKCE + nonce checked on the way back, the ID token's signature, issuer and
// audience checked by openid-client), and the step that turns its checked claims into our user and session.
import type { User } from "next-auth";
import type { OAuthConfig } from "next-auth/providers/oauth";
import { groupsOfClaim } from "./domain/oidc";
import { auditSinkFor } from "./services/audit";
import { oidcCallbackWait } from "./services/auth/login";
import { oidcSignIn } from "./services/auth/oidc";
import { discoveryUrl, type OidcConfig } from "./services/auth/oidc-settings";
import { ensureReady } from "./services/bootstrap";
import { env } from "../env";

export const OIDC_PROVIDER_ID = "oidc";

type Claims = Record<string, unknown>;

export function oidcProvider(config: OidcConfig): OAuthConfig<Claims> {
  return {
    id: OIDC_PROVIDER_ID,
    name: config.name,
    type: "oauth",
    wellKnown: discoveryUrl(config.issuer),
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    authorization: { params: { scope: "openid email profile" } },
    idToken: true,
    checks: ["state", "pkce", "nonce"],
    userinfo: {
      // The ID token's claims, checked. Providers that keep the groups or the email out of the ID token (they answer
      // them at the userinfo endpoint) get the rest from there; openid-client refuses a userinfo answer for another
      // subject, and what the ID token says wins.
      async request({ tokens, client }) {
        // next-auth types the tokens loosely; at this point they are openid-client's checked TokenSet.
        const set = tokens as unknown as Parameters<typeof client.userinfo>[0] & { claims(): Claims; access_token?: string };
        const claims = set.claims();
        const tenantsThere = !config.tenantsClaim || claims[config.tenantsClaim] !== undefined;
        if ((claims[config.rolesClaim] !== undefined && claims.email !== undefined && tenantsThere) || !set.access_token) return claims;
        const info: Claims = await client.userinfo(set);
        return { ...info, ...claims };
      },
    },
    profile: (claims) => ({ id: String(claims.sub), email: typeof claims.email === "string" ? claims.email : null, name: typeof claims.name === "string" ? claims.name : null }),
  };
}

/**
 * next-auth's signIn callback for the provider: our user and session from the checked claims. On success the
 * user object next-auth hands on to the jwt callback carries our user id and session id; a refusal throws its code
 * (the login page shows the fixed text of that code, SIGN_IN_ERRORS).
 */
export async function completeOidcSignIn(config: OidcConfig, user: User, claims: Claims, ip: string): Promise<true> {
  const { db } = await ensureReady();
  const r = await oidcSignIn(
    db,
    auditSinkFor(db),
    {
      issuer: String(claims.iss),
      subject: String(claims.sub),
      email: typeof claims.email === "string" ? claims.email : undefined,
      emailVerified: claims.email_verified === true,
      name: typeof claims.name === "string" ? claims.name : undefined,
      groups: groupsOfClaim(claims[config.rolesClaim]),
      ...(config.tenantsClaim ? { tenants: groupsOfClaim(claims[config.tenantsClaim]) } : {}),
    },
    config.roleMap,
    ip,
  );
  if (!r.ok) throw new Error(r.reason);
  Object.assign(user, { id: r.user.id, email: r.user.email, name: r.user.name, sid: r.sid });
  return true;
}

/**
 * The provider's callback (`/api/auth/callback/oidc`) from `ip`, counted before next-auth reads it: the login page
 * with the rate_limited text when that address is over its limit (services/auth/login.ts), else null.
 */
export async function oidcCallbackRefusal(nextauth: readonly string[], ip: string, requestUrl: string): Promise<URL | null> {
  if (nextauth[0] !== "callback" || nextauth[1] !== OIDC_PROVIDER_ID) return null;
  const { db } = await ensureReady();
  if ((await oidcCallbackWait(db, auditSinkFor(db), ip)) === 0) return null;
  return new URL("/login?error=rate_limited", env.NEXTAUTH_URL ?? requestUrl);
}
