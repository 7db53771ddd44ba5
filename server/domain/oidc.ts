// Roles from an OpenID provider's groups: the mapping an administrator writes in OMNIFORGE_OIDC_ROLE_MAP
// ("admins=admin,eng=author") and the role a set of groups earns under it.
import { ROLES, type Role } from "./vocabulary";

export type RoleMap = ReadonlyMap<string, Role>;

/** Parses "group=role, group=role"; throws naming the entry that is not one. */
export function parseRoleMap(text: string): RoleMap {
  const map = new Map<string, Role>();
  for (const raw of text.split(",")) {
    const entry = raw.trim();
    if (!entry) continue;
    const at = entry.lastIndexOf("=");
    const group = entry.slice(0, at).trim();
    const role = entry.slice(at + 1).trim();
    if (at <= 0 || !group) throw new Error(`"${entry}" is not group=role (such as admins=admin)`);
    if (!(ROLES as readonly string[]).includes(role)) throw new Error(`"${entry}": the role must be one of ${ROLES.join(", ")}`);
    map.set(group, role as Role);
  }
  return map;
}

/**
 * The highest role any of the groups maps to, or the lowest role (viewer) when none does: who may sign in at all
 * is the provider's decision (which people it assigns to the console's client), what they may do is ours.
 */
export function roleOfGroups(groups: readonly string[], map: RoleMap): Role {
  let rank = 0;
  for (const g of groups) {
    const role = map.get(g);
    if (role) rank = Math.max(rank, ROLES.indexOf(role));
  }
  return ROLES[rank]!;
}

/** A claim's groups: a list of strings, or one string (some providers send a single group so). */
export function groupsOfClaim(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return [];
}

/**
 * What the login page says for an `error` in its address: only these fixed texts, never the parameter itself, so a
 * crafted link cannot put words of its own on the console's login page. The keys are our refusals and next-auth's
 * error codes (a forged or stale state, a token for another client: OAuthCallback).
 */
export const SIGN_IN_ERRORS: Readonly<Record<string, string>> = {
  disabled: "This account is disabled. Ask an administrator to enable it.",
  no_email: "The identity provider sent no email for this account.",
  email_unverified: "A console user with this email exists, and the identity provider has not verified the email.",
  rate_limited: "Too many sign-ins from this address in the last minute. Wait a minute, then sign in again.",
  OAuthSignin: "The identity provider could not be reached. Try again, or ask an administrator.",
  OAuthCallback: "The answer from the identity provider was refused. Start the sign-in again.",
  Callback: "The answer from the identity provider was refused. Start the sign-in again.",
  AccessDenied: "Sign-in was refused.",
};
export const SIGN_IN_ERROR_DEFAULT = "Sign-in did not complete. Start it again.";

/** How a console user signs in, as the Users and Tokens pages show it: a password, or an OpenID provider's identities. */
export interface SignInWay {
  kind: "password" | "oidc";
  /** The provider's issuer and the person's subject there (its stable id), one per linked identity. */
  identities: { issuer: string; subject: string }[];
}

/** One line for a person: "password", or "OIDC idp.example.com: <subject>" per identity (the issuer's host, else the issuer). */
export function signInLabel(way: SignInWay): string {
  if (way.kind === "password") return "password";
  const host = (issuer: string) => {
    try {
      return new URL(issuer).host || issuer;
    } catch {
      return issuer;
    }
  };
  return way.identities.map((i) => `OIDC ${host(i.issuer)}: ${i.subject}`).join("; ");
}
