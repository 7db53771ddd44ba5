// Two console servers on one database, each its own connection behind its own tRPC endpoint on 127.0.0.1 (issue #38):
// whatever one server changes (the policy, an approval, a role, a sign-out) is what the other's very next request
// reads, although a query's policy reads now come from its session's round trip and from that server's copy of the
// approved rows. On PostgreSQL, the statements a warm read costs are counted on the server's own pool. Runs on both
// databases (npm run test:pg).
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import { eq } from "drizzle-orm";
import superjson from "superjson";
import { describe, expect, it } from "vitest";
import type { AppRouter } from "../api/root";
import { postgresPool } from "../../db/dialect";
import { approvals } from "../../db/schema";
import { resolveDataHome } from "../config";
import { MemoryAuditSink } from "../runtime/audit/events";
import { sessionUser, startSession, endSession } from "../services/auth/sessions";
import { effectivePolicy } from "../services/policy/store";
import { inRequestScope } from "../services/policy/request-stamp";
import { createUser, updateUser } from "../services/users/users";
import { serveFetch } from "../test-support/http-server";
import { describeOnPostgres } from "../test-support/needs";
import { secondConnection, tempDb } from "../test-support/temp-db";
import { useTestHome } from "../test-support/test-home";
import { handleTrpcRequest } from "./trpc-route";

type Db = ReturnType<typeof tempDb>["db"];
const SESSION_HEADER = "x-test-session";

/** A console server over `db`: the session named by the request's header (user id and session id) is read as the console reads a cookie's. */
function consoleOn(db: Db, dir: string) {
  const dataHome = resolveDataHome({ OMNIFORGE_HOME: dir });
  return serveFetch((req) =>
    handleTrpcRequest(req, {
      allowedOrigins: new Set(),
      context: async () => {
        const [userId, sid] = (req.headers.get(SESSION_HEADER) ?? ":").split(":");
        return { db, dataHome, audit: new MemoryAuditSink(), user: await sessionUser(db, { userId, sid }), ip: "127.0.0.1" };
      },
    }),
  );
}

const client = (url: string, session: { userId: string; sid: string }) =>
  createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${url}/api/trpc`, transformer: superjson, headers: () => ({ [SESSION_HEADER]: `${session.userId}:${session.sid}` }) })] });

/** Two servers (A on the test's connection, B on a second one) and an admin signed in on both; `body` runs with them. */
async function twoServers(t: ReturnType<typeof tempDb>, body: (s: { a: string; b: string; bDb: Db; boss: { userId: string; sid: string } }) => Promise<void>) {
  const second = secondConnection(t);
  const [a, b] = [await consoleOn(t.db, t.dir), await consoleOn(second.db, t.dir)];
  try {
    const u = await createUser(t.db, { email: "boss@x.io", role: "admin", password: "password1" });
    await body({ a: a.url, b: b.url, bDb: second.db, boss: { userId: u.id, sid: await startSession(t.db, u.id, "127.0.0.1") } });
  } finally {
    await a.close();
    await b.close();
    await second.close();
  }
}

const codeOf = (e: unknown) => (e instanceof TRPCClientError ? (e.data as { code?: string } | undefined)?.code : String(e));

describe("two servers on one database: a change on A is read by B's next request", () => {
  const t = useTestHome(tempDb);

  it("a policy change made through A is in B's next answer, and the one after", async () => {
    await twoServers(t, async ({ a, b, boss }) => {
      expect((await client(b, boss).policy.get.query()).policy.blockedNames).toEqual([]);
      await client(a, boss).policy.change.mutate({ op: "block", name: "leaky-skill" });
      expect((await client(b, boss).policy.get.query()).policy.blockedNames).toEqual(["leaky-skill"]);
      await client(a, boss).policy.change.mutate({ op: "unblock", name: "leaky-skill" });
      expect((await client(b, boss).policy.get.query()).policy.blockedNames).toEqual([]);
      // A's own mutation reads its change back (a mutation never takes a stamp read before it).
      const changed = await client(a, boss).policy.change.mutate({ op: "setAdminsEditPersonal", allow: true });
      expect(changed.policy.adminsEditPersonal).toBe(true);
    });
  });

  it("an approval decided on A (or withdrawn) is in B's next read of the approved digests", async () => {
    await twoServers(t, async ({ bDb, boss }) => {
      // What a request on B does: its session read, then the policy the skill doors resolve with.
      const approvedOnB = () => inRequestScope(async () => (await sessionUser(bDb, boss), await effectivePolicy(bDb)).approvedDigests);
      expect(await approvedOnB()).toEqual({});
      const row = { layer: "project", skill: "deploy", digest: "d1", status: "pending" as const, requestedBy: "ann@x.io", requestedAt: 1 };
      const { id } = (await t.db.insert(approvals).values(row).returning({ id: approvals.id }))[0]!;
      expect(await approvedOnB()).toEqual({});
      const decide = (status: "approved" | "rejected", at: number) => t.db.update(approvals).set({ status, decidedAt: at, decidedBy: "boss@x.io" }).where(eq(approvals.id, id));
      await decide("approved", 2);
      expect(await approvedOnB()).toEqual({ "project:deploy": "d1" });
      expect(await approvedOnB()).toEqual({ "project:deploy": "d1" });
      await decide("rejected", 3);
      expect(await approvedOnB()).toEqual({});
    });
  });

  it("a role taken away on A is refused on B at once, and a sign-out on A ends the session on B", async () => {
    await twoServers(t, async ({ a, b, boss }) => {
      const ann = await createUser(t.db, { email: "ann@x.io", role: "admin", password: "password1" });
      const annSession = { userId: ann.id, sid: await startSession(t.db, ann.id, "10.0.0.2") };
      await client(b, annSession).policy.get.query();
      await client(a, boss).user.update.mutate({ id: ann.id, role: "author" });
      await expect(client(b, annSession).policy.get.query()).rejects.toSatisfy((e) => codeOf(e) === "FORBIDDEN");
      await updateUser(t.db, ann.id, { role: "admin" });
      await client(b, annSession).policy.get.query();
      await endSession(t.db, annSession.sid, "sign_out");
      await expect(client(b, annSession).policy.get.query()).rejects.toSatisfy((e) => codeOf(e) === "UNAUTHORIZED");
    });
  });
});

describeOnPostgres("the statements of a warm policy read", "counts the statements on a PostgreSQL pool", () => {
  const t = useTestHome(tempDb);

  it("is the session's one round trip: the policy and the approved rows come with it or from B's copy", async () => {
    await twoServers(t, async ({ b, bDb, boss }) => {
      const pool = postgresPool(bDb)!;
      const sent: string[] = [];
      const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
      (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        sent.push(String((args[0] as { text?: string }).text ?? args[0]));
        return query(...args);
      };
      await client(b, boss).policy.get.query();
      sent.length = 0;
      await client(b, boss).policy.get.query();
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatch(/from "auth_sessions"/);
    });
  });
});
