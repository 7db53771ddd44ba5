// Cross-site request refusal for cookie sessions. A browser attaches the session cookie to a form another
// site posts to us; it also says where the request came from (Origin, Sec-Fetch-Site), which that site
// cannot forge. Requests carrying a bearer token are not judged here: no browser adds one on its own, so
// they stand or fall by their token alone.

/** The console's own origin (NEXTAUTH_URL, or localhost on PORT) plus OMNIFORGE_ALLOWED_ORIGINS. */
export function allowedOrigins(env: Record<string, string | undefined>): Set<string> {
  const own = env.NEXTAUTH_URL ?? `http://localhost:${env.PORT ?? "3000"}`;
  const out = new Set<string>();
  for (const raw of [own, ...(env.OMNIFORGE_ALLOWED_ORIGINS ?? "").split(",")]) {
    const s = raw.trim();
    if (!s) continue;
    out.add(new URL(s).origin);
  }
  return out;
}

/** Throws with the entry named when OMNIFORGE_ALLOWED_ORIGINS holds something that is not an http(s) origin. */
export function checkAllowedOrigins(list: string | undefined): void {
  for (const raw of (list ?? "").split(",")) {
    const s = raw.trim();
    if (!s) continue;
    let u: URL;
    try {
      u = new URL(s);
    } catch {
      throw new Error(`"${s}" is not a URL`);
    }
    if ((u.protocol !== "http:" && u.protocol !== "https:") || u.origin !== s.replace(/\/$/, "")) {
      throw new Error(`"${s}" is not an origin (scheme://host[:port], nothing after it)`);
    }
  }
}

export function hasBearerToken(h: Headers): boolean {
  return /^bearer\s+\S/i.test(h.get("authorization") ?? "");
}

/** Names a browser gives this machine; `localhost` and `127.0.0.1` are one console to the person typing either. */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Whether `origin` is one of `allowed`, a loopback alias counting as the same origin (issue #35): a local console
 * configured as http://localhost:3000 and opened at http://127.0.0.1:3000 or http://[::1]:3000 is the same server
 * on the same port of this machine, and no other site can be served there.
 */
function isAllowedOrigin(origin: string, allowed: Set<string>): boolean {
  if (allowed.has(origin)) return true;
  let u: URL;
  try {
    u = new URL(origin);
  } catch {
    return false;
  }
  if (!LOOPBACK.test(u.hostname)) return false;
  for (const a of allowed) {
    const own = new URL(a);
    if (LOOPBACK.test(own.hostname) && own.protocol === u.protocol && own.port === u.port) return true;
  }
  return false;
}

/** What a person refused for the page's origin can do about it, for the refusal's message. */
export function originAdvice(h: Headers, allowed: Set<string>): string {
  const origin = h.get("origin");
  const own = [...allowed][0];
  if (origin === null || origin === "null" || !own) return "";
  return ` Open the console at ${own}, or, if ${origin.slice(0, 200)} is this console's address too, add it to OMNIFORGE_ALLOWED_ORIGINS (or set NEXTAUTH_URL to it) and restart.`;
}

/** Why a state-changing request must be refused as cross-site, or null when it may go on. */
export function crossSiteReason(h: Headers, allowed: Set<string>): string | null {
  if (hasBearerToken(h)) return null;
  const origin = h.get("origin");
  if (origin !== null && !isAllowedOrigin(origin, allowed)) return `origin ${origin.slice(0, 200)} is not the console's`;
  if (h.get("sec-fetch-site") === "cross-site") return "the browser marked the request cross-site";
  return null;
}
