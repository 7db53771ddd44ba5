// Two console servers on one database count the same sign-in attempts: each server here is its own connection to
// the one database (a second SQLite connection to its file, or a second PostgreSQL pool), as two processes would
// be, so nothing is shared but the database.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../../../db/client";
import { MemoryAuditSink } from "../../runtime/audit/events";
import { secondConnection, tempDb } from "../../test-support/temp-db";
import { createUser } from "../users/users";
import { attemptLogin } from "./login";
import { SharedRateLimiter } from "./shared-rate-limit";

let t: ReturnType<typeof tempDb>;
let other: ReturnType<typeof secondConnection>;
let second: Db;
beforeEach(async () => {
  t = tempDb();
  other = secondConnection(t);
  second = other.db;
  await createUser(t.db, { email: "ann@x.io", role: "author", password: "right-password" });
});
afterEach(async () => {
  await other.close();
  await t.cleanup();
});

describe("SharedRateLimiter", () => {
  it("counts the hits of both servers under one limit, and lets attempts through again as the minute passes", async () => {
    let now = 1_800_000_000_000; // a window's start: 60 s windows are aligned to the clock
    const a = new SharedRateLimiter(t.db, 3, 60_000, () => now);
    const b = new SharedRateLimiter(second, 3, 60_000, () => now);
    expect([await a.hit("k"), await b.hit("k"), await a.hit("k")]).toEqual([0, 0, 0]);
    now += 15_000;
    expect(await b.hit("k")).toBe(45_000); // the fourth, on the other server: wait for the window's end
    expect(await a.hit("other-key")).toBe(0);
    expect(await a.count("k")).toBe(4);
    // The next window's start: the minute before still holds all four, so another waits half a minute, until the
    // four weigh two.
    now += 45_000;
    expect(await b.hit("k")).toBe(30_000);
    // Three quarters in: a quarter of the four, and the two of this window, make three.
    now += 45_000;
    expect(await a.hit("k")).toBe(0);
    expect(await b.count("k")).toBe(2);
  });

  it("ten sign-in attempts a minute per account hold across two servers together", async () => {
    const audit = new MemoryAuditSink();
    // One fixed instant: on the clock, a minute's window could end between two attempts (bcrypt takes a while).
    const now = () => 1_800_000_000_000;
    const servers = [new SharedRateLimiter(t.db, 10, 60_000, now), new SharedRateLimiter(second, 10, 60_000, now)];
    const dbs = [t.db, second];
    const reasons: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await attemptLogin(dbs[i % 2]!, audit, { email: "ann@x.io", password: "wrong", ip: `10.0.0.${i}` }, servers[i % 2]!);
      reasons.push(r.ok ? "ok" : r.reason);
    }
    expect(reasons).toEqual([...Array(10).fill("invalid"), "rate_limited", "rate_limited"]);
    // Even the right password waits now, on either server.
    const right = await attemptLogin(t.db, audit, { email: "ann@x.io", password: "right-password", ip: "10.0.1.1" }, servers[0]!);
    expect(right).toMatchObject({ ok: false, reason: "rate_limited" });
  });
});
