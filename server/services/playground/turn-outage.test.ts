// A playground turn when the database goes away under it (issue #38): the server running the turn reaches the
// database through a TCP proxy the test cuts, as a PostgreSQL that went down for it; the test reads through its own
// connection. The turn that lapsed for it stops, and its reason is stored once the database is back.
import { afterEach, expect, it, vi } from "vitest";
import { postgresDb, type Db } from "../../../db/client";
import { postgresPool } from "../../../db/dialect";
import { describeOnPostgres } from "../../test-support/needs";
import { tcpProxy, type TcpProxy } from "../../test-support/tcp-proxy";
import { useSkillsTestHome } from "../../test-support/test-home";
import { createSession, followTurn, listMessages, runningTurn, settled, startTurn } from "./index";
import { renewClaims } from "./turn-claims";
import { useHeldModel } from "./test-support/held-model";

const h = useSkillsTestHome();
const held = useHeldModel();
const alice = { id: "alice", role: "author" as const };
const ONE_LINE = "The database does not answer; the console reconnects by itself when it is back. Try again shortly.";

/** Until the turn's agent loop has begun (the session's skills are read; it asks the model next). */
async function runStarted(sessionId: string): Promise<void> {
  for await (const item of await followTurn(h.db, alice, sessionId)) if (item.event.type === "run_started") return;
}

/** Resolves when the turn's end logs that its answer waits for the database (the log is silenced meanwhile). */
function answerWaits(): Promise<void> {
  let waiting!: () => void;
  const waits = new Promise<void>((resolve) => (waiting = resolve));
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    if (String(args[0]).startsWith("[omniforge] a playground turn's answer waits for the database")) waiting();
  });
  return waits;
}

describeOnPostgres("a turn whose database goes away", "only a database server can go away under a running console", () => {
  let proxy: TcpProxy | undefined;
  let db: Db | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    if (db) await postgresPool(db)!.end();
    await proxy?.close();
    db = proxy = undefined;
  });

  /** A session, and server A's database reached through a proxy the test can cut. */
  async function sessionThroughProxy() {
    const env = await held.start();
    const s = await createSession(h.db, h.dataHome, alice, { provider: "openai", model: "scripted-1" }, env);
    const cut = (proxy = await tcpProxy(Number(new URL(h.url!).port)));
    const through = (db = postgresDb(cut.through(h.url!), h.dataHome.home));
    // Kept in the describe's variables too, for afterEach to close.
    return { env, s, proxy: cut, db: through };
  }

  it("stops before its lease could pass, and its reason is in the session once the database is back", async () => {
    const { env, s, proxy, db } = await sessionThroughProxy();
    await startTurn({ db, dataHome: h.dataHome, audit: h.audit, env }, alice, s.id, { request: "a send through A" });
    await runStarted(s.id);

    const waits = answerWaits();
    proxy.cut();
    // The renewal timer's tick 25 s after the last renewal that went through: the lease would pass before the next.
    await renewClaims(Date.now() + 25_000);
    await waits;
    proxy.restore();
    expect(await settled(s.id)).toBe(true);

    expect((await listMessages(h.db, s.id)).at(-1)).toMatchObject({
      turn: 1,
      role: "assistant",
      content: expect.stringMatching(/^\(The turn failed: the database did not answer long enough/),
      record: { reason: "error", claimLapse: "claim.unrenewed" },
    });
    expect(await runningTurn(h.db, s.id)).toBeNull();
  });

  it("a turn that ended keeps its answer when its claim lapses while the answer waits for the database", async () => {
    const { env, s, proxy, db } = await sessionThroughProxy();
    await startTurn({ db, dataHome: h.dataHome, audit: h.audit, env }, alice, s.id, { request: "a send through A" });
    await runStarted(s.id);

    const waits = answerWaits();
    proxy.cut();
    // The model answers with the database gone: the turn has ended, its answer waits to be stored.
    held.release();
    await waits;
    // Then the renewals fail until the lease would pass: the claim lapses, but nothing runs any more to stop.
    await renewClaims(Date.now() + 25_000);
    proxy.restore();
    expect(await settled(s.id)).toBe(true);

    // No other server took the session (its claim row is still A's), so the whole answer is kept, not a lapse.
    const last = (await listMessages(h.db, s.id)).at(-1);
    expect(last).toMatchObject({ turn: 1, role: "assistant", content: "an answer", record: { reason: "answered" } });
    expect(last?.record).not.toHaveProperty("claimLapse");
    expect(await runningTurn(h.db, s.id)).toBeNull();
  });

  it("a turn whose database goes away before it reads the session's skills says so in the one line, not the query", async () => {
    const { env, s, proxy, db } = await sessionThroughProxy();
    const waits = answerWaits();
    await startTurn({ db, dataHome: h.dataHome, audit: h.audit, env }, alice, s.id, { request: "a send through A" });
    // Before the run's first query has an answer (one needs the event loop to come back over the proxy).
    proxy.cut();
    await waits;
    proxy.restore();
    expect(await settled(s.id)).toBe(true);

    const last = (await listMessages(h.db, s.id)).at(-1)!;
    expect(last).toMatchObject({ turn: 1, role: "assistant", content: `(The turn failed: ${ONE_LINE}.)`, record: { reason: "error", error: ONE_LINE } });
    // Nor in the events the page was streamed and the session keeps.
    expect(JSON.stringify(last.record)).not.toMatch(/Failed query|select /i);
  });
});
