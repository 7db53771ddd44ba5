// Two console servers on one database sign people in (issue #38): each "server" is its own connection (a pool of its
// own on PostgreSQL, a connection to the file on SQLite) with a limiter of its own, as each console process makes one,
// so nothing is shared but the database. The limiters read one fixed clock: windows are aligned to the minute, and a
// test crossing a minute's end would start counting again. Ten attempts a minute per account hold across both together, whichever server the
// eleventh lands on. Runs on both databases (npm run test:pg).
import { describe, expect, it } from "vitest";
import { MemoryAuditSink } from "../../runtime/audit/events";
import { secondConnection, tempDb } from "../../test-support/temp-db";
import { useTestHome } from "../../test-support/test-home";
import { createUser } from "../users/users";
import { attemptLogin } from "./login";
import { SharedRateLimiter } from "./shared-rate-limit";

type Db = Parameters<typeof attemptLogin>[0];
const NOW = 1_800_000_030_000; // half a minute into a window
/** A server as the console makes it: its connection and its own limiter of ten a minute. */
const server = (db: Db) => ({ db, limiter: new SharedRateLimiter(db, 10, 60_000, () => NOW) });

describe("the sign-in limit across two servers on one database", () => {
  const t = useTestHome(tempDb);

  /** Attempts on the servers in the order given ("A" or "B"), each from its own address; the outcome of each. */
  async function attempts(order: string, email: string, password: string, servers: Record<string, ReturnType<typeof server>>): Promise<string[]> {
    const audit = new MemoryAuditSink();
    const out: string[] = [];
    for (const [i, s] of [...order].entries()) {
      const { db, limiter } = servers[s]!;
      const r = await attemptLogin(db, audit, { email, password, ip: `10.1.${email.length}.${i}` }, limiter);
      out.push(r.ok ? "ok" : r.reason);
    }
    return out;
  }

  it("refuses the eleventh attempt of a minute on either server, and the right password with it", async () => {
    const other = secondConnection(t);
    try {
      const servers = { A: server(t.db), B: server(other.db) };
      for (const email of ["ann@x.io", "bob@x.io"]) await createUser(t.db, { email, role: "author", password: "right-password" });
      // Ten wrong passwords spread unevenly (six on A, four on B), then the eleventh on B for one account and on A
      // for the other: a limit per process would let each server take ten.
      expect(await attempts("AABABAABAB" + "B", "ann@x.io", "wrong", servers)).toEqual([...Array(10).fill("invalid"), "rate_limited"]);
      expect(await attempts("BBBBBABABA" + "A", "bob@x.io", "wrong", servers)).toEqual([...Array(10).fill("invalid"), "rate_limited"]);
      expect(await attempts("AB", "ann@x.io", "right-password", servers)).toEqual(["rate_limited", "rate_limited"]);
      // Another account is not held back by those: the limit is per account (and per address), not global.
      await createUser(other.db, { email: "cy@x.io", role: "author", password: "right-password" });
      expect(await attempts("BA", "cy@x.io", "right-password", servers)).toEqual(["ok", "ok"]);
    } finally {
      await other.close();
    }
  });

  it("refuses the eleventh of a minute that spans two of the clock's minutes, on either server", async () => {
    const other = secondConnection(t);
    try {
      await createUser(t.db, { email: "eve@x.io", role: "author", password: "right-password" });
      let now = NOW + 28_000; // two seconds before a minute's end
      const clock = () => now;
      const servers = [t.db, other.db].map((db) => ({ db, limiter: new SharedRateLimiter(db, 10, 60_000, clock) }));
      const audit = new MemoryAuditSink();
      const outcomes: string[] = [];
      for (let i = 0; i < 11; i++) {
        if (i === 6) now += 4_000; // six before the minute's end, five after it
        const { db, limiter } = servers[i % 2]!;
        const r = await attemptLogin(db, audit, { email: "eve@x.io", password: "wrong", ip: `10.3.0.${i}` }, limiter);
        outcomes.push(r.ok ? "ok" : r.reason);
      }
      expect(outcomes).toEqual([...Array(10).fill("invalid"), "rate_limited"]);
    } finally {
      await other.close();
    }
  });

  it("counts two servers' attempts made at the same moment without losing one", async () => {
    const other = secondConnection(t);
    try {
      await createUser(t.db, { email: "dee@x.io", role: "author", password: "right-password" });
      const audit = new MemoryAuditSink();
      const servers = [server(t.db), server(other.db)];
      // Twelve at once, six on each: each hit is one upsert, so exactly ten pass whatever the interleaving.
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => attemptLogin(servers[i % 2]!.db, audit, { email: "dee@x.io", password: "wrong", ip: `10.2.0.${i}` }, servers[i % 2]!.limiter)),
      );
      const reasons = results.map((r) => (r.ok ? "ok" : r.reason));
      expect(reasons.filter((r) => r === "invalid")).toHaveLength(10);
      expect(reasons.filter((r) => r === "rate_limited")).toHaveLength(2);
      // Every refusal is in the audit as a refused sign-in naming the reason.
      const refused = audit.events.filter((e) => e.type === "login_failed" && (e.details as { reason?: string }).reason === "rate_limited");
      expect(refused).toHaveLength(2);
    } finally {
      await other.close();
    }
  });
});
