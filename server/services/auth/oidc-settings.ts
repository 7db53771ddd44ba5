// The OpenID provider's settings read together, and the start's check that the issuer answers discovery: a
// wrong issuer or a half-written configuration stops the start with one line instead of failing at first sign-in.
import { setting } from "../../../env";
import { parseRoleMap, type RoleMap } from "../../domain/oidc";

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** What the login page's button names: "Sign in with <name>". */
  name: string;
  rolesClaim: string;
  roleMap: RoleMap;
  /** The claim holding a person's tenants; absent: tenants are the console's to assign. */
  tenantsClaim?: string;
}

/** The provider's settings, or null when none is configured; throws one line when they do not fit together. */
export function oidcConfig(): OidcConfig | null {
  const issuer = setting("OMNIFORGE_OIDC_ISSUER");
  const clientId = setting("OMNIFORGE_OIDC_CLIENT_ID");
  const clientSecret = setting("OMNIFORGE_OIDC_CLIENT_SECRET");
  if (!issuer) {
    if (clientId || clientSecret) throw new Error("OMNIFORGE_OIDC_CLIENT_ID and _SECRET are set but OMNIFORGE_OIDC_ISSUER is not");
    // With neither sign-in nobody could reach the console, the administrator included.
    if (!setting("OMNIFORGE_PASSWORD_LOGIN")) throw new Error("OMNIFORGE_PASSWORD_LOGIN=off needs OMNIFORGE_OIDC_ISSUER (else nobody can sign in)");
    return null;
  }
  if (!clientId || !clientSecret) throw new Error("OMNIFORGE_OIDC_ISSUER needs OMNIFORGE_OIDC_CLIENT_ID and OMNIFORGE_OIDC_CLIENT_SECRET");
  return {
    issuer: issuer.replace(/\/+$/, ""),
    clientId,
    clientSecret,
    name: setting("OMNIFORGE_OIDC_NAME"),
    rolesClaim: setting("OMNIFORGE_OIDC_ROLES_CLAIM"),
    roleMap: parseRoleMap(setting("OMNIFORGE_OIDC_ROLE_MAP") ?? ""),
    ...(setting("OMNIFORGE_OIDC_TENANTS_CLAIM") ? { tenantsClaim: setting("OMNIFORGE_OIDC_TENANTS_CLAIM") } : {}),
  };
}

export const discoveryUrl = (issuer: string) => `${issuer}/.well-known/openid-configuration`;

/** At start: the issuer's discovery document must answer and name this issuer. Throws one line saying what failed. */
export async function checkOidcIssuer(config: OidcConfig | null = oidcConfig(), timeoutMs = 10_000): Promise<void> {
  if (!config) return;
  const url = discoveryUrl(config.issuer);
  let doc: { issuer?: unknown; authorization_endpoint?: unknown };
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: "error" });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    doc = (await res.json()) as typeof doc;
  } catch (e) {
    // fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND, a certificate) is in its cause.
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`OMNIFORGE_OIDC_ISSUER: no OpenID discovery at ${url} (${cause?.code ?? cause?.message ?? (e as Error).message})`);
  }
  // The spec has the document name the very issuer it was fetched for; anything else is a wrong address.
  if (typeof doc?.issuer !== "string" || doc.issuer.replace(/\/+$/, "") !== config.issuer || typeof doc.authorization_endpoint !== "string") {
    throw new Error(`OMNIFORGE_OIDC_ISSUER: ${url} names the issuer ${JSON.stringify(doc?.issuer)}, not ${config.issuer}`);
  }
}
