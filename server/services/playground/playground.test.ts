import fs from "node:fs";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { scriptedOpenAiServer, type ScriptedServer } from "../../runtime/agent/test-support/agent";
import {
  createSession,
  followTurn,
  listMessages,
  listSessions,
  ownSession,
  readableSession,
  removeSession,
  renameSession,
  runningTurn,
  scratchDirOf,
  settled,
  startTurn,
  stopTurn,
  type Actor,
  type StreamItem,
  type TurnDeps,
  warmTurnWorker,
} from "./index";
import { NOSY_SKILL, playgroundWorld, RELEASE_SKILL } from "./test-support/playground";
import { useTestHome } from "../../test-support/test-home";

const w = useTestHome(playgroundWorld);
let server: ScriptedServer | undefined;
const alice: Actor = { id: "alice", role: "author" };
const bob: Actor = { id: "bob", role: "author" };
const admin: Actor = { id: "root-admin", role: "admin" };

// As in a server, where opening the playground starts the turn worker: the timing checks measure turns, not its start.
beforeAll(() => warmTurnWorker({}), 30_000);
beforeEach(() => {
  w.skill("release-notes", RELEASE_SKILL.frontmatter, RELEASE_SKILL.body, RELEASE_SKILL.files);
  w.skill("env-inspector", NOSY_SKILL.frontmatter, NOSY_SKILL.body);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const deps = (env: Record<string, string | undefined> = {}): TurnDeps => ({ db: w.db, dataHome: w.dataHome, audit: w.audit, env });

async function collect(actor: Actor, sessionId: string): Promise<StreamItem[]> {
  const out: StreamItem[] = [];
  for await (const item of (await followTurn(w.db, actor, sessionId))) out.push(item);
  await settled(sessionId);
  return out;
}

const err = async (p: Promise<unknown> | (() => unknown)) => {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (e) {
    return e as { code: string; message: string };
  }
  throw new Error("expected an error");
};

describe("sessions", () => {
  it("are kept per user with a private scratch folder; admins may read, only owners change", async () => {
    const s = await createSession(w.db, w.dataHome, alice, { title: "Try release notes", mode: "prompt", environment: " prod " });
    expect(s).toMatchObject({ userId: "alice", provider: "offline", model: "offline-rules-1", mode: "prompt", environment: "prod" });
    const scratch = scratchDirOf(w.dataHome, s.id);
    expect(fs.statSync(scratch).mode & 0o777).toBe(0o700);
    await createSession(w.db, w.dataHome, bob, {});
    expect((await listSessions(w.db, "alice")).map((x) => x.title)).toEqual(["Try release notes"]);
    expect((await err(() => readableSession(w.db, bob, s.id))).code).toBe("NOT_FOUND");
    expect((await readableSession(w.db, admin, s.id)).id).toBe(s.id);
    expect((await err(() => ownSession(w.db, admin, s.id))).code).toBe("FORBIDDEN");
    expect((await err(() => renameSession(w.db, bob, s.id, "mine now"))).code).toBe("NOT_FOUND");
    expect((await renameSession(w.db, alice, s.id, "  Renamed \n session ")).title).toBe("Renamed session");
    expect((await err(() => renameSession(w.db, alice, s.id, "   "))).code).toBe("BAD_REQUEST");
  });

  it("refuse a provider that is not configured, and take a model name only for real providers", async () => {
    expect((await err(() => createSession(w.db, w.dataHome, alice, { provider: "openai" }, {}))).message).toMatch(/OPENAI_BASE_URL/);
    const s = await createSession(w.db, w.dataHome, alice, { provider: "openai", model: "qwen2.5:7b" }, { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" });
    expect(s.model).toBe("qwen2.5:7b");
    expect((await err(() => createSession(w.db, w.dataHome, alice, { provider: "openai", model: "a b" }, { OPENAI_API_KEY: "k" }))).code).toBe("BAD_REQUEST");
    expect((await createSession(w.db, w.dataHome, alice, { provider: "offline", model: "gpt-5" })).model).toBe("offline-rules-1");
  });

  it("deleting removes the messages and the scratch folder, even with files a script wrote", async () => {
    const s = await createSession(w.db, w.dataHome, alice, {});
    await startTurn(deps(), alice, s.id, { request: "draft the release notes" });
    await collect(alice, s.id);
    fs.writeFileSync(`${scratchDirOf(w.dataHome, s.id)}/notes.txt`, "draft");
    expect(await listMessages(w.db, s.id)).toHaveLength(2);
    expect((await err(removeSession(w, bob, s.id))).code).toBe("NOT_FOUND");
    await removeSession(w, alice, s.id);
    expect(fs.existsSync(scratchDirOf(w.dataHome, s.id))).toBe(false);
    expect(await listMessages(w.db, s.id)).toHaveLength(0);
    expect(await listSessions(w.db, "alice")).toHaveLength(0);
  });
});

describe("turns (offline provider, real sandbox)", () => {
  it("stream the listing, the activation, the script run, and persist the turn's events", async () => {
    const s = await createSession(w.db, w.dataHome, alice, {});
    const { turn } = await startTurn(deps(), alice, s.id, { request: "draft the release notes" });
    expect(turn).toBe(1);
    const events = (await collect(alice, s.id)).map((i) => i.event);
    const types = events.map((e) => e.type);
    expect(types[0]).toBe("sandbox");
    const started = events.find((e) => e.type === "run_started");
    expect(started && "listing" in started && started.listing.text).toContain('"release-notes": Draft release notes');
    expect(events.find((e) => e.type === "skill_selected")).toMatchObject({ skill: "release-notes" });
    expect(events.find((e) => e.type === "skill_activated")).toMatchObject({ skill: "release-notes", via: "skill_tool" });
    const script = events.find((e) => e.type === "script_run");
    expect(script).toMatchObject({ exitCode: 0, sandboxed: true });
    expect(script && "stdout" in script && script.stdout).toContain("feat: playground sessions");
    expect(types.at(-1)).toBe("run_finished");

    const msgs = await listMessages(w.db, s.id);
    expect(msgs.map((m) => [m.turn, m.role])).toEqual([[1, "user"], [1, "assistant"]]);
    expect(msgs[1]!.content).toContain("feat: playground sessions");
    expect(msgs[1]!.record).toMatchObject({ mode: "tool", provider: "offline", reason: "answered" });
    const kept = msgs[1]!.record!.events.map((e) => e.type);
    expect(kept).toContain("script_run");
    expect(kept.filter((t) => t === "text_delta")).toHaveLength(1);
    // The agent's audit events carry the playground session id (the audit dashboard links back with it).
    expect(w.audit.events.some((e) => e.type === "skill_activated" && e.sessionId === s.id)).toBe(true);
  });

  it("run a skill's script when the data home is private (0700), without opening the home to anyone", async () => {
    // Not only the CLI's temp scratch: the console's own session scratch lives inside the data home.
    w.skill("disk-report", "description: Write the disk report. Use when asked for the disk report.\nallowed-tools: Bash(python3 scripts/*)", "# Disk report\n\n```bash\npython3 scripts/report.py\n```\n", {
      "scripts/report.py": "import os\nopen('report.txt', 'w').write('written by ' + str(os.getuid()))\nprint('report saved in', os.getcwd())\n",
    });
    expect(fs.statSync(w.dataHome.home).mode & 0o777).toBe(0o700);
    const s = await createSession(w.db, w.dataHome, alice, {});
    await startTurn(deps(), alice, s.id, { request: "write the disk report" });
    const events = (await collect(alice, s.id)).map((i) => i.event);
    const sandboxNote = events.find((e) => e.type === "sandbox");
    const script = events.find((e) => e.type === "script_run");
    expect(script, JSON.stringify(events.filter((e) => e.type === "script_run" || e.type === "error"))).toMatchObject({ exitCode: 0, sandboxed: true });
    expect(script && "stdout" in script && script.stdout).toContain("report saved in /scratch");
    // The file the script wrote is in the session's scratch, inside the private home, for the service to read.
    expect(fs.readFileSync(`${scratchDirOf(w.dataHome, s.id)}/report.txt`, "utf8")).toBe("written by 1000");
    // The home kept its mode, and the run's bind did not outlive it on the host.
    expect(fs.statSync(w.dataHome.home).mode & 0o777).toBe(0o700);
    expect(fs.readFileSync("/proc/self/mountinfo", "utf8")).not.toContain(scratchDirOf(w.dataHome, s.id));
    expect(sandboxNote).toMatchObject({ mode: expect.stringMatching(/^sandboxed/) });
  });

  it("show a call outside allowed-tools as refused, with the rule", async () => {
    const s = await createSession(w.db, w.dataHome, alice, {});
    await startTurn(deps(), alice, s.id, { request: "inspect the environment" });
    const events = (await collect(alice, s.id)).map((i) => i.event);
    const refused = events.find((e) => e.type === "tool_result" && e.refused);
    expect(refused).toMatchObject({ tool: "bash", ok: false, refused: { skill: "env-inspector", rule: "allowed-tools", allowed: ["Read"] } });
    expect(events.some((e) => e.type === "script_run")).toBe(false);
  });

  it("a skill subset narrows the listing; replay in another mode runs the same request with the same history", async () => {
    const s = await createSession(w.db, w.dataHome, alice, { skills: ["env-inspector"] });
    await startTurn(deps(), alice, s.id, { request: "draft the release notes" });
    const first = (await collect(alice, s.id)).map((i) => i.event);
    const listing = first.find((e) => e.type === "run_started");
    expect(listing && "listing" in listing && listing.listing.text).not.toContain("release-notes");
    await startTurn(deps(), alice, s.id, { replayOf: 1, mode: "orchestrated" });
    const again = (await collect(alice, s.id)).map((i) => i.event);
    expect(again.find((e) => e.type === "run_started")).toMatchObject({ mode: "orchestrated", request: "draft the release notes" });
    const msgs = await listMessages(w.db, s.id);
    expect(msgs[2]).toMatchObject({ turn: 2, role: "user", content: "draft the release notes", request: { mode: "orchestrated", replayOf: 1 } });
    expect(msgs[3]!.record).toMatchObject({ mode: "orchestrated", replayOf: 1 });
    expect((await ownSession(w.db, alice, s.id)).mode).toBe("tool"); // the session keeps its own mode
  });
});

describe("turns against a scripted OpenAI-compatible server on 127.0.0.1", () => {
  it("one turn at a time: a second send while running is refused; stop ends it and the session stays usable", async () => {
    server = await scriptedOpenAiServer([{ content: "slow answer" }], { delayMs: 1500 });
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "test-key" };
    const s = await createSession(w.db, w.dataHome, alice, { provider: "openai", model: "scripted-1" }, env);
    // Two sends at once (two tabs): one turn starts, the other is refused, though neither had started when both asked.
    const both = await Promise.allSettled([startTurn(deps(env), alice, s.id, { request: "hello" }), startTurn(deps(env), alice, s.id, { request: "hello too" })]);
    expect(both.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await runningTurn(w.db, s.id)).toMatchObject({ turn: 1, elsewhere: false });
    const second = await err(startTurn(deps(env), alice, s.id, { request: "again" }));
    expect(second.code).toBe("CONFLICT");
    expect(second.message).toMatch(/already running/);
    expect((await err(() => stopTurn(w, bob, s.id))).code).toBe("NOT_FOUND");
    expect(await stopTurn(w, alice, s.id)).toBe(true);
    await settled(s.id);
    const msgs = await listMessages(w.db, s.id);
    expect(msgs[1]).toMatchObject({ role: "assistant", content: "(Stopped before an answer.)", record: { reason: "aborted" } });
    // usable again: the next turn answers
    await startTurn(deps(env), alice, s.id, { request: "hello again" });
    await collect(alice, s.id);
    expect((await listMessages(w.db, s.id))[3]).toMatchObject({ turn: 2, content: "slow answer", record: { reason: "answered", model: "scripted-1" } });
    expect(server.requests.at(-1)!.model).toBe("scripted-1");
  });

  it("the answer reaches a follower piece by piece while the turn runs, and stop mid-stream ends it at once", async () => {
    const answer = "A long answer from the scripted model, sent over the wire in many small pieces, one every 300 ms.";
    server = await scriptedOpenAiServer([{ content: answer }], { chunkDelayMs: 300 });
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "k" };
    const s = await createSession(w.db, w.dataHome, alice, { provider: "openai" }, env);
    await startTurn(deps(env), alice, s.id, { request: "tell me everything" });
    const pieces: string[] = [];
    for await (const item of (await followTurn(w.db, alice, s.id))) {
      if (item.event.type !== "text_delta") continue;
      // Each piece arrives while the turn still runs: the follower is not handed the answer at the end.
      expect(await runningTurn(w.db, s.id)).toMatchObject({ turn: 1, elsewhere: false });
      pieces.push(item.event.text);
      if (pieces.length === 2) {
        expect(await stopTurn(w, alice, s.id)).toBe(true);
      }
    }
    await settled(s.id);
    // The rest of the answer (many more pieces at 300 ms each) never came: stop cut the stream.
    expect(pieces.join("").length).toBeLessThan(answer.length);
    expect(answer.startsWith(pieces.join(""))).toBe(true);
    // The history keeps what the person already read, marked as cut, not "stopped before an answer".
    const kept = (await listMessages(w.db, s.id))[1]!;
    expect(kept.record).toMatchObject({ reason: "aborted" });
    expect(kept.content).toBe(`${pieces.join("")}\n\n(Stopped mid-answer.)`);
    expect(server.requests[0]!.stream).toBe(true);
  });

  it("tool calls then an answer: the scripted model's calls go through the executor", async () => {
    server = await scriptedOpenAiServer([
      { toolCalls: [{ name: "skill", arguments: { name: "release-notes" } }] },
      { toolCalls: [{ name: "run_script", arguments: { script: "scripts/collect.py" } }] },
      { toolCalls: [{ name: "bash", arguments: { command: "cat /etc/passwd" } }] },
      { content: "Release notes drafted." },
    ]);
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "test-key" };
    const s = await createSession(w.db, w.dataHome, alice, { provider: "openai" }, env);
    await startTurn(deps(env), alice, s.id, { request: "draft the release notes" });
    const events = (await collect(alice, s.id)).map((i) => i.event);
    expect(events.find((e) => e.type === "skill_activated")).toMatchObject({ skill: "release-notes" });
    expect(events.find((e) => e.type === "script_run")).toMatchObject({ exitCode: 0 });
    expect(events.find((e) => e.type === "tool_result" && e.tool === "bash")).toMatchObject({ ok: false, refused: { rule: "allowed-tools" } });
    expect(events.filter((e) => e.type === "model_call")).toHaveLength(4);
    expect((await listMessages(w.db, s.id))[1]).toMatchObject({ content: "Release notes drafted.", record: { reason: "answered" } });
  });

  it("a provider that is down or a step limit fails the turn with a message; the next turn works", async () => {
    const down = { OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_API_KEY: "k" };
    const s = await createSession(w.db, w.dataHome, alice, { provider: "openai" }, down);
    await startTurn(deps(down), alice, s.id, { request: "hello" });
    await collect(alice, s.id);
    const failed = (await listMessages(w.db, s.id))[1]!;
    expect(failed.record).toMatchObject({ reason: "error" });
    expect(failed.content).toMatch(/^\(The turn failed: /);

    server = await scriptedOpenAiServer([{ toolCalls: [{ name: "list_files", arguments: { path: "." } }] }]);
    const loop = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "k" };
    await startTurn({ ...deps(loop), stepLimit: 2 }, alice, s.id, { request: "loop forever" });
    await collect(alice, s.id);
    const limited = (await listMessages(w.db, s.id))[3]!;
    expect(limited.record).toMatchObject({ reason: "step_limit" });
    expect(limited.content).toMatch(/step limit/);
    // history handed to the model skips failed turns' non-answers
    expect(server.requests[0]!.messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["hello", "loop forever"]);
  });

  it("sessions of different users run at once without waiting for each other", async () => {
    // No answer leaves the server until both requests are in: turns that waited for each other never get there.
    let release!: () => void;
    server = await scriptedOpenAiServer([{ content: "done" }], { hold: new Promise<void>((r) => (release = r)) });
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "k" };
    const a = await createSession(w.db, w.dataHome, alice, { provider: "openai" }, env);
    const b = await createSession(w.db, w.dataHome, bob, { provider: "openai" }, env);
    await startTurn(deps(env), alice, a.id, { request: "one" });
    await startTurn(deps(env), bob, b.id, { request: "two" });
    await vi.waitFor(() => expect(server!.requests).toHaveLength(2), { timeout: 15_000, interval: 20 });
    release();
    await Promise.all([collect(alice, a.id), collect(bob, b.id)]);
    expect((await listMessages(w.db, a.id))[1]!.content).toBe("done");
    expect((await listMessages(w.db, b.id))[1]!.content).toBe("done");
  });
});

describe("script limit", () => {
  it("a script over the limit of scripts running at once is queued, and the turn says so", async () => {
    const { createSandbox } = await import("../../runtime/sandbox/index");
    const { wrapRunner } = await import("./sandbox");
    w.skill("slow-report", "description: Build the slow report. Use when asked for the slow report.\nallowed-tools: Bash(python3 scripts/*)", "# Slow\n\n```bash\npython3 scripts/slow.py\n```\n", {
      "scripts/slow.py": "import time\ntime.sleep(0.8)\nprint('report ready')\n",
    });
    const sandbox = createSandbox({ scratchRoot: w.dataHome.scratchRoot, maxConcurrent: 1 });
    try {
      const runner = wrapRunner(sandbox, 1);
      const a = await createSession(w.db, w.dataHome, alice, {});
      const b = await createSession(w.db, w.dataHome, bob, {});
      await startTurn({ ...deps(), runner }, alice, a.id, { request: "build the slow report" });
      await startTurn({ ...deps(), runner }, bob, b.id, { request: "build the slow report" });
      const [ea, eb] = await Promise.all([collect(alice, a.id), collect(bob, b.id)]);
      const all = [...ea, ...eb].map((i) => i.event);
      expect(all.filter((e) => e.type === "script_run" && "stdout" in e && e.stdout.includes("report ready"))).toHaveLength(2);
      expect(all.find((e) => e.type === "script_queued")).toMatchObject({ limit: 1, running: 1, waiting: 1 });
      const waited = all.find((e) => e.type === "script_waited");
      // How long it waited depends on when the second turn reached its script (late on a busy host): that it waited
      // and says so is the rule, not a length of time.
      expect(waited && "waitedMs" in waited && waited.waitedMs).toBeGreaterThan(0);
    } finally {
      await sandbox.close();
    }
  });
});

describe("what a session's agent sees", () => {
  it("follows the session's scope (as the layers view) and the policy in force now", async () => {
    const { listingPreview } = await import("./index");
    const { writeStoredPolicy } = await import("../policy/store");
    w.skill("prod-runbook", "description: Steps for production incidents. Use during an incident.\nscope:\n  environments: [prod]", "# Runbook\n");
    const staging = await createSession(w.db, w.dataHome, alice, { environment: "staging" });
    const prod = await createSession(w.db, w.dataHome, alice, { environment: "prod" });
    expect((await listingPreview(deps(), alice, staging.id)).text).not.toContain("prod-runbook");
    expect((await listingPreview(deps(), alice, prod.id)).text).toContain("prod-runbook");
    await writeStoredPolicy(w.db, { blockedNames: ["release-notes"], disabled: [] }, "admin");
    const after = await listingPreview(deps(), alice, prod.id);
    expect(after.text).not.toContain("release-notes");
    expect(after.text).toContain("env-inspector");
  });

  it("previews the listing for a typed request before it is sent: the same ranking, the best matches and why", async () => {
    const { listingPreview } = await import("./index");
    const s = await createSession(w.db, w.dataHome, alice, {});
    const p = await listingPreview(deps(), alice, s.id, undefined, "draft the release notes for this version");
    expect(p.request).toBe("draft the release notes for this version");
    expect(p.abstain).toBe(false);
    expect(p.matches[0]).toMatchObject({ name: "release-notes" });
    expect(p.matches[0]!.why).toMatch(/^name matches 'release', 'notes'/);
    expect(p.strategy).toBe("all");
    expect(p.why).toMatch(/fit the budget/);
    const none = await listingPreview(deps(), alice, s.id, undefined, "what is the capital of Peru");
    expect(none.abstain).toBe(true);
    expect(none.abstainReason).toBe("no skill's text contains any word of the request");
  });

  it("the new-session form offers no blocked skill", async () => {
    const { playgroundOptions } = await import("./index");
    const { writeStoredPolicy } = await import("../policy/store");
    const names = async () => (await playgroundOptions(w.db, w.dataHome, alice)).skills.map((s) => s.name);
    expect(await names()).toContain("release-notes");
    await writeStoredPolicy(w.db, { blockedNames: ["release-notes"], disabled: [] }, "admin");
    expect(await names()).not.toContain("release-notes");
  });
});
