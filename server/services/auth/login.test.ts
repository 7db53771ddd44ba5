import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MemoryAuditSink } from "../../runtime/audit/events";
import { tempDb } from "../../test-support/temp-db";
import { createUser, updateUser } from "../users/users";
import { attemptLogin } from "./login";
import { RateLimiter } from "./rate-limit";

let t: ReturnType<typeof tempDb>;
let audit: MemoryAuditSink;
beforeEach(async () => {
  t = tempDb();
  audit = new MemoryAuditSink();
  await createUser(t.db, { email: "ann@x.io", role: "author", password: "right-password" });
});
afterEach(() => t.cleanup());

describe("attemptLogin", () => {
  it("accepts the right password and records a login", async () => {
    const r = await attemptLogin(t.db, audit, { email: "ANN@x.io", password: "right-password", ip: "1.2.3.4" }, new RateLimiter(10, 60_000));
    expect(r.ok).toBe(true);
    expect(audit.events).toMatchObject([{ type: "login", outcome: "ok", actor: { email: "ann@x.io" } }]);
  });

  it("refuses a wrong password or an unknown email with the same message, and records login_failed", async () => {
    const limiter = new RateLimiter(10, 60_000);
    const a = await attemptLogin(t.db, audit, { email: "ann@x.io", password: "nope", ip: "1.2.3.4" }, limiter);
    const b = await attemptLogin(t.db, audit, { email: "ghost@x.io", password: "nope", ip: "1.2.3.4" }, limiter);
    expect(a).toMatchObject({ ok: false, reason: "invalid", message: "Wrong email or password." });
    expect(b).toMatchObject({ ok: false, reason: "invalid", message: "Wrong email or password." });
    expect(audit.events.map((e) => e.type)).toEqual(["login_failed", "login_failed"]);
    expect(JSON.stringify(audit.events)).not.toContain("nope");
  });

  it("refuses a disabled account even with the right password", async () => {
    const other = await createUser(t.db, { email: "boss@x.io", role: "admin", password: "password1" });
    void other;
    const ann = (await (await import("../users/users")).findUserByEmail(t.db, "ann@x.io"))!;
    await updateUser(t.db, ann.id, { disabled: true });
    const r = await attemptLogin(t.db, audit, { email: "ann@x.io", password: "right-password", ip: "1.2.3.4" }, new RateLimiter(10, 60_000));
    expect(r).toMatchObject({ ok: false, reason: "disabled" });
  });

  it("rate limits per account and per address, then lets the next window through", async () => {
    let now = 0;
    const limiter = new RateLimiter(10, 60_000, () => now);
    for (let i = 0; i < 10; i++) {
      const r = await attemptLogin(t.db, audit, { email: "ann@x.io", password: "bad", ip: `10.0.0.${i}` }, limiter);
      expect(r.ok).toBe(false);
      expect(r.ok === false && r.reason).toBe("invalid");
    }
    // The 11th try on the account is refused even with the right password and from a new address.
    const blocked = await attemptLogin(t.db, audit, { email: "ann@x.io", password: "right-password", ip: "10.9.9.9" }, limiter);
    expect(blocked).toMatchObject({ ok: false, reason: "rate_limited" });
    expect(blocked.ok === false && blocked.message).toMatch(/Try again in \d+ seconds/);

    // One address trying many accounts is limited too.
    const limiter2 = new RateLimiter(10, 60_000, () => now);
    for (let i = 0; i < 10; i++) await attemptLogin(t.db, audit, { email: `u${i}@x.io`, password: "bad", ip: "6.6.6.6" }, limiter2);
    expect(await attemptLogin(t.db, audit, { email: "ann@x.io", password: "right-password", ip: "6.6.6.6" }, limiter2)).toMatchObject({
      reason: "rate_limited",
    });

    now += 60_000;
    expect((await attemptLogin(t.db, audit, { email: "ann@x.io", password: "right-password", ip: "10.9.9.9" }, limiter)).ok).toBe(true);
  });

  it("refuses every password, the right one included, when password sign-in is off, and records why", async () => {
    vi.stubEnv("OMNIFORGE_PASSWORD_LOGIN", "off");
    try {
      const r = await attemptLogin(t.db, audit, { email: "ann@x.io", password: "right-password", ip: "1.2.3.4" }, new RateLimiter(10, 60_000));
      expect(r).toMatchObject({ ok: false, reason: "password_login_off" });
      expect(audit.events).toMatchObject([{ type: "login_failed", outcome: "refused", details: { reason: "password_login_off" } }]);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
