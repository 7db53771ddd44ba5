// One turn at a time per session, and "a turn is running", across console servers (issue #38). Server A is this test
// process; server B is a process of its own (test-support/turn-server.ts) on the same database and data home, with
// none of A's memory. The model holds every answer until the test releases it, so a turn is in flight for as long
// as the test needs.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { turnClaims } from "../../../db/schema";
import { repoRoot } from "../../config";
import { ServiceError } from "../../domain/errors";
import { useSkillsTestHome } from "../../test-support/test-home";
import { createSession, followTurn, listMessages, listSessions, runningTurn, settled, startTurn } from "./index";
import { releaseEarlierClaims, renewClaims } from "./turn-claims";
import { SERVER_ID } from "../server-id";
import { useHeldModel } from "./test-support/held-model";

const h = useSkillsTestHome();
const held = useHeldModel();
const alice = { id: "alice", role: "author" as const };
interface ServerB {
  child: ChildProcess;
  exited: Promise<unknown>;
  next(): Promise<Record<string, unknown>>;
}
const servers: ServerB[] = [];

afterEach(async () => {
  for (const b of servers.splice(0)) b.child.kill("SIGKILL");
});

/** Server B making one call; `next()` reads its next answer line. */
function serverB(request: { action: "send" | "get"; sessionId: string; env?: Record<string, string> }): ServerB {
  const script = path.join(repoRoot(), "server", "services", "playground", "test-support", "turn-server.ts");
  const child = spawn(process.execPath, ["--import", "tsx", script, h.url ?? h.file, JSON.stringify({ ...request, actor: alice, dataHome: h.dataHome })], { cwd: repoRoot(), stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = once(child, "exit");
  const b: ServerB = {
    child,
    exited,
    next: async (): Promise<Record<string, unknown>> => {
      const line = await lines.next();
      if (line.done) throw new Error(`server B ended without an answer: ${stderr}`);
      return JSON.parse(line.value as string) as Record<string, unknown>;
    },
  };
  servers.push(b);
  return b;
}

const refusal = (p: Promise<unknown>) => p.then(() => new Error("not refused"), (e: unknown) => e);
const deps = (env: Record<string, string>) => ({ db: h.db, dataHome: h.dataHome, audit: h.audit, env });

async function session(env: Record<string, string>) {
  return createSession(h.db, h.dataHome, alice, { provider: "openai", model: "scripted-1" }, env);
}

/** A session whose first turn server B started; `b` is that server, still running. */
async function startedOnB() {
  const env = await held.start();
  const s = await session(env);
  const b = serverB({ action: "send", sessionId: s.id, env });
  expect(await b.next()).toMatchObject({ started: { turn: 1 } });
  return { env, s, b };
}

/** B killed with SIGKILL, its claim left in the database as a dead server leaves it. */
async function kill(b: ServerB) {
  b.child.kill("SIGKILL");
  await b.exited;
}

describe("a turn running on another server", () => {
  it("shows here as running there, and a Send here is refused until it ends; then the next Send here starts", async () => {
    const env = await held.start();
    const s = await session(env);
    const b = serverB({ action: "send", sessionId: s.id, env });
    expect(await b.next()).toEqual({ started: { turn: 1, mode: "tool" } });

    expect(await runningTurn(h.db, s.id)).toMatchObject({ turn: 1, mode: "tool", elsewhere: true });
    expect((await listSessions(h.db, alice.id)).filter((x) => x.running).map((x) => x.id)).toEqual([s.id]);
    const second = await refusal(startTurn(deps(env), alice, s.id, { request: "a second send through A" }));
    expect(second).toBeInstanceOf(ServiceError);
    expect(second).toMatchObject({ code: "CONFLICT", message: expect.stringMatching(/already running/) });

    held.release();
    expect(await b.next()).toEqual({ ended: true });
    await b.exited;
    expect(await runningTurn(h.db, s.id)).toBeNull();
    expect((await listSessions(h.db, alice.id)).filter((x) => x.running)).toEqual([]);
    expect(await startTurn(deps(env), alice, s.id, { request: "the next send through A" })).toEqual({ turn: 2, mode: "tool" });
    expect(await settled(s.id)).toBe(true);
    expect((await listMessages(h.db, s.id)).map((m) => [m.turn, m.role, m.content])).toEqual([
      [1, "user", "a request sent through server B"],
      [1, "assistant", "an answer"],
      [2, "user", "the next send through A"],
      [2, "assistant", "an answer"],
    ]);
  });

  it("a turn running here is running for server B too, and B refuses a second Send", async () => {
    const env = await held.start();
    const s = await session(env);
    await startTurn(deps(env), alice, s.id, { request: "a send through A" });

    const seen = await serverB({ action: "get", sessionId: s.id }).next();
    expect(seen).toMatchObject({ running: { turn: 1, mode: "tool", elsewhere: true } });
    expect(await serverB({ action: "send", sessionId: s.id, env }).next()).toEqual({
      refused: { code: "CONFLICT", message: expect.stringMatching(/already running/) },
    });
    expect(await runningTurn(h.db, s.id)).toMatchObject({ turn: 1, elsewhere: false });
    held.release();
    expect(await settled(s.id)).toBe(true);
    expect(await runningTurn(h.db, s.id)).toBeNull();
  });

  it("a follower here gets no events from it and ends once it has ended, with its answer then in the history", async () => {
    const { env, s, b } = await startedOnB();

    const items: unknown[] = [];
    let ended = false;
    const following = (async () => {
      for await (const item of await followTurn(h.db, alice, s.id)) items.push(item);
      ended = true;
    })();
    // While a third server starts and reads the claim (a second at least, many database reads), the follower here
    // keeps waiting: ending at once would make the page read the history again and again while the turn runs.
    expect(await serverB({ action: "get", sessionId: s.id }).next()).toMatchObject({ running: { turn: 1, elsewhere: true } });
    expect(ended).toBe(false);

    held.release();
    await following;
    expect(items).toEqual([]);
    expect((await listMessages(h.db, s.id)).at(-1)).toMatchObject({ turn: 1, role: "assistant", content: "an answer" });
  });
});

describe("a claim whose server died", () => {
  it("holds the session until its lease runs out; a live server's renewal keeps its own", async () => {
    const { env, s, b } = await startedOnB();
    await kill(b);
    // As a server of another machine, whose process cannot be seen from here (one of this host is: see below).
    await h.db.update(turnClaims).set({ server: "another-host:4242" });

    // Within the lease B's claim still holds: a dead server is not told apart from a slow one.
    expect(await refusal(startTurn(deps(env), alice, s.id, { request: "too soon" }))).toMatchObject({ code: "CONFLICT" });
    // CLAIM_LEASE_MS later (the lease is moved back instead of waiting for it): the session is free again.
    await h.db.update(turnClaims).set({ leaseUntil: Date.now() - 1 });
    expect(await runningTurn(h.db, s.id)).toBeNull();
    expect(await startTurn(deps(env), alice, s.id, { request: "after B died" })).toEqual({ turn: 2, mode: "tool" });

    // A's turn runs on; its lease is about to pass and its renewal comes first: B is still refused.
    await h.db.update(turnClaims).set({ leaseUntil: Date.now() - 1 });
    await renewClaims();
    expect(await serverB({ action: "send", sessionId: s.id, env }).next()).toMatchObject({ refused: { code: "CONFLICT" } });
    held.release();
    expect(await settled(s.id)).toBe(true);
    expect((await listMessages(h.db, s.id)).at(-1)).toMatchObject({ turn: 2, role: "assistant", content: "an answer" });
  });
});

describe("a claim whose server of this host is gone", () => {
  it("is dropped at start (a restarted server's earlier life), and a live server's claim is kept", async () => {
    const { env, s, b } = await startedOnB();
    // Alive: kept, and the session stays busy.
    expect(await releaseEarlierClaims(h.db)).toBe(0);
    expect(await runningTurn(h.db, s.id)).toMatchObject({ turn: 1, elsewhere: true });
    await kill(b);

    expect(await releaseEarlierClaims(h.db)).toBe(1);
    expect(await runningTurn(h.db, s.id)).toBeNull();
    expect(await startTurn(deps(env), alice, s.id, { request: "after B's restart" })).toEqual({ turn: 2, mode: "tool" });
    held.release();
    expect(await settled(s.id)).toBe(true);
  });

  it("a claim under this process's own id that it does not hold is one it lost track of, and is dropped", async () => {
    const s = await session(await held.start());
    await h.db.insert(turnClaims).values({ sessionId: s.id, claim: "lost-track-of", turn: 1, mode: "tool", server: SERVER_ID, startedAt: Date.now(), leaseUntil: Date.now() + 30_000 });
    expect(await releaseEarlierClaims(h.db)).toBe(1);
    expect(await h.db.select().from(turnClaims)).toEqual([]);
  });

  it("a claim of this host name and this pid under another tag waits for its lease (another container's live server, or this one's earlier life)", async () => {
    const env = await held.start();
    const s = await session(env);
    const sibling = `${os.hostname()}:${process.pid}:0a1b2c3d`;
    expect(sibling).not.toBe(SERVER_ID);
    await h.db.insert(turnClaims).values({ sessionId: s.id, claim: "a-sibling-container's", turn: 1, mode: "tool", server: sibling, startedAt: Date.now(), leaseUntil: Date.now() + 30_000 });
    expect(await releaseEarlierClaims(h.db)).toBe(0);
    expect(await refusal(startTurn(deps(env), alice, s.id, { request: "while the sibling runs" }))).toMatchObject({ code: "CONFLICT" });
    // Its lease passed (moved back instead of waited for): the session takes a Send.
    await h.db.update(turnClaims).set({ leaseUntil: Date.now() - 1 });
    expect(await startTurn(deps(env), alice, s.id, { request: "after its lease" })).toMatchObject({ mode: "tool" });
    held.release();
    expect(await settled(s.id)).toBe(true);
  });

  it("a Send finding the session claimed by a process of this host that is gone takes it at once", async () => {
    const { env, s, b } = await startedOnB();
    await kill(b);
    expect(await startTurn(deps(env), alice, s.id, { request: "right after B died" })).toEqual({ turn: 2, mode: "tool" });
    held.release();
    expect(await settled(s.id)).toBe(true);
    expect((await listMessages(h.db, s.id)).at(-1)).toMatchObject({ turn: 2, role: "assistant", content: "an answer" });
  });
});

describe("a turn whose claim lapses", () => {
  const lastAnswer = async (sessionId: string, turn: number) => (await listMessages(h.db, sessionId)).find((m) => m.turn === turn && m.role === "assistant");

  it("stops when its renewal finds another server's claim, says why in the session, and B's turn goes on", async () => {
    const env = await held.start();
    const s = await session(env);
    await startTurn(deps(env), alice, s.id, { request: "a send through A" });
    // A's lease passed unrenewed (the database was away); B took the session meanwhile.
    await h.db.update(turnClaims).set({ leaseUntil: Date.now() - 1 });
    const b = serverB({ action: "send", sessionId: s.id, env });
    expect(await b.next()).toEqual({ started: { turn: 2, mode: "tool" } });

    await renewClaims();
    expect(await settled(s.id)).toBe(true);
    const lapsed = await lastAnswer(s.id, 1);
    expect(lapsed?.content).toMatch(/^\(The turn failed: this server lost its claim on the session/);
    expect(lapsed?.record).toMatchObject({ reason: "error", claimLapse: "claim.taken" });
    // B's claim is untouched by A's release, and its turn ends with its answer.
    expect(await runningTurn(h.db, s.id)).toMatchObject({ turn: 2, elsewhere: true });
    held.release();
    expect(await b.next()).toEqual({ ended: true });
    expect(await lastAnswer(s.id, 2)).toMatchObject({ content: "an answer" });
  });

  it("stops when it could not renew before its lease ends, while the claim is still its own; the session is free after", async () => {
    const env = await held.start();
    const s = await session(env);
    await startTurn(deps(env), alice, s.id, { request: "a send through A" });
    // The renewal timer's tick 25 s after the last renewal that went through (none between: the database was away).
    // The lease ends at 30 s, before the next tick could renew it: the turn stops now, before any server may take over.
    await renewClaims(Date.now() + 25_000);
    expect(await settled(s.id)).toBe(true);
    const lapsed = await lastAnswer(s.id, 1);
    expect(lapsed?.content).toMatch(/^\(The turn failed: the database did not answer long enough/);
    expect(lapsed?.record).toMatchObject({ reason: "error", claimLapse: "claim.unrenewed" });
    expect(await runningTurn(h.db, s.id)).toBeNull();
    expect(await startTurn(deps(env), alice, s.id, { request: "the next send" })).toEqual({ turn: 2, mode: "tool" });
    held.release();
    expect(await settled(s.id)).toBe(true);
    expect(await lastAnswer(s.id, 2)).toMatchObject({ content: "an answer" });
  });

  it("a turn that ends without having noticed writes no answer once another server holds the session (fenced by its claim)", async () => {
    const env = await held.start();
    const s = await session(env);
    await startTurn(deps(env), alice, s.id, { request: "a send through A" });
    await h.db.update(turnClaims).set({ leaseUntil: Date.now() - 1 });
    const b = serverB({ action: "send", sessionId: s.id, env });
    expect(await b.next()).toMatchObject({ started: { turn: 2 } });

    // Both turns get their answer; A's renewal never ran in between.
    held.release();
    expect(await settled(s.id)).toBe(true);
    expect(await b.next()).toEqual({ ended: true });
    expect(await lastAnswer(s.id, 1)).toMatchObject({ content: expect.stringMatching(/lost its claim/), record: { claimLapse: "claim.taken" } });
    expect(await lastAnswer(s.id, 2)).toMatchObject({ content: "an answer" });
  });
});
