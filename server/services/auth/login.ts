// Checking a sign-in attempt: rate limits first (per account and per address), then the password, then
// whether the account is enabled. Every outcome is an audit event.
import type { Db } from "../../../db/client";
import type { AuditSink } from "../../runtime/audit/events";
import { findUserByEmail, normaliseEmail, toPublic, type PublicUser } from "../users/users";
import { verifyPassword } from "../users/password";
import { processWide } from "../../process-wide";
import { SharedRateLimiter } from "./shared-rate-limit";
import { setting } from "../../../env";

export type LoginResult =
  | { ok: true; user: PublicUser }
  | { ok: false; reason: "invalid" | "disabled" | "rate_limited" | "password_login_off"; message: string };

// Per account and per address, counted in the database so the limit holds across every server on it;
// OMNIFORGE_LOGIN_LIMIT_PER_MINUTE (default 10) exists for test suites that sign in often.
const loginLimiters = processWide("loginLimiters", () => new WeakMap<Db, SharedRateLimiter>());
function loginLimiter(db: Db): SharedRateLimiter {
  let l = loginLimiters().get(db);
  if (!l) loginLimiters().set(db, (l = new SharedRateLimiter(db, setting("OMNIFORGE_LOGIN_LIMIT_PER_MINUTE"), 60_000)));
  return l;
}

/**
 * The identity provider's callbacks per address, counted before next-auth reads them (issue 35): at ten times the
 * password limit, since a whole office behind one address signs in through the provider in the same minutes.
 */
const OIDC_CALLBACKS_PER_LOGIN_LIMIT = 10;
const oidcLimiters = processWide("oidcCallbackLimiters", () => new WeakMap<Db, SharedRateLimiter>());
function oidcCallbackLimiter(db: Db): SharedRateLimiter {
  let l = oidcLimiters().get(db);
  if (!l) oidcLimiters().set(db, (l = new SharedRateLimiter(db, OIDC_CALLBACKS_PER_LOGIN_LIMIT * setting("OMNIFORGE_LOGIN_LIMIT_PER_MINUTE"), 60_000)));
  return l;
}

/** Counts one callback of the identity provider from `ip`; over the limit, audits the refusal and returns the wait (ms), else 0. */
export async function oidcCallbackWait(db: Db, audit: AuditSink, ip: string, limiter: AttemptCounter = oidcCallbackLimiter(db)): Promise<number> {
  const wait = await limiter.hit(`oidc-address:${ip}`);
  if (wait > 0) audit.record({ type: "login_failed", actor: { id: "anonymous" }, outcome: "refused", details: { reason: "rate_limited", method: "oidc", ip } });
  return wait;
}

/** What counts sign-in attempts: the shared limiter, or in a test any counter with the same hit(). */
interface AttemptCounter {
  hit(key: string): Promise<number> | number;
}

export async function attemptLogin(
  db: Db,
  audit: AuditSink,
  input: { email: string; password: string; ip: string },
  limiter: AttemptCounter = loginLimiter(db),
): Promise<LoginResult> {
  const email = normaliseEmail(input.email);
  // Refused here, not only hidden on the login page: a hand-written POST to the credentials endpoint meets it too.
  if (!setting("OMNIFORGE_PASSWORD_LOGIN")) {
    audit.record({ type: "login_failed", actor: { id: "anonymous", email }, outcome: "refused", details: { reason: "password_login_off", ip: input.ip } });
    return { ok: false, reason: "password_login_off", message: "Password sign-in is turned off: sign in through the identity provider." };
  }
  const wait = Math.max(await limiter.hit(`account:${email}`), await limiter.hit(`address:${input.ip}`));
  if (wait > 0) {
    audit.record({ type: "login_failed", actor: { id: "anonymous", email }, outcome: "refused", details: { reason: "rate_limited", ip: input.ip } });
    return {
      ok: false,
      reason: "rate_limited",
      message: `Too many sign-in attempts. Try again in ${Math.ceil(wait / 1000)} seconds.`,
    };
  }
  const user = await findUserByEmail(db, email);
  // Compare even when the user is unknown, so timing does not reveal which emails exist.
  const passwordOk = await verifyPassword(input.password, user?.passwordHash ?? "$2b$10$invalidinvalidinvalidinvalidinvalidinvalidinvalidinva");
  if (!user || !passwordOk) {
    audit.record({ type: "login_failed", actor: { id: user?.id ?? "anonymous", email }, outcome: "refused", details: { reason: "invalid_credentials", ip: input.ip } });
    return { ok: false, reason: "invalid", message: "Wrong email or password." };
  }
  if (user.disabled) {
    audit.record({ type: "login_failed", actor: { id: user.id, email }, outcome: "refused", details: { reason: "disabled", ip: input.ip } });
    return { ok: false, reason: "disabled", message: "This account is disabled. Ask an administrator to enable it." };
  }
  audit.record({ type: "login", actor: { id: user.id, email }, outcome: "ok", details: { ip: input.ip } });
  return { ok: true, user: toPublic(user) };
}
