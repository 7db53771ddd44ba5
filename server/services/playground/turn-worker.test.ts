import { beforeEach, describe, expect, it } from "vitest";
import { listSkills } from "../skills";
import { MemoryAuditSink } from "../../runtime/audit/events";
import { changePolicy } from "../governance/policy-change";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createSession, followTurn, listingFor, listingPreview, listMessages, settled, startTurn, stopTurn, warmTurnWorker, type Actor, type StreamItem } from "./index";
import { TURN_WORKER_NICE } from "./turn-pool";
import { playgroundWorld, RELEASE_SKILL } from "./test-support/playground";
import { useTestHome } from "../../test-support/test-home";

const w = useTestHome(playgroundWorld);
const alice: Actor = { id: "alice", role: "author" };

// A catalog big enough that ranking it for a first turn is real work (hundreds of skills with long bodies).
function bigCatalog(n: number): void {
  const body = Array.from({ length: 120 }, (_, k) => `${k + 1}. Check the input of step ${k}, run the tool, compare the output with the expected values and write down what changed.`).join("\n");
  for (let i = 0; i < n; i++) w.skill(`catalog-skill-${i}`, `description: Skill number ${i} of a large catalog about topic ${i % 37}. Use when topic ${i % 37} comes up.`, `# Skill ${i}\n\n${body}\n`);
}

beforeEach(() => {
  w.skill("release-notes", RELEASE_SKILL.frontmatter, RELEASE_SKILL.body, RELEASE_SKILL.files);
});

/** The longest time this thread was kept from running anything else while `during` ran: a 2 ms ticker's longest gap. */
async function longestStall(during: () => Promise<void>): Promise<number> {
  let longest = 0;
  let last = performance.now();
  const tick = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 2);
  try {
    await during();
  } finally {
    clearInterval(tick);
  }
  return longest;
}

describe("turn worker", () => {
  it("a playground turn does not hold up a concurrent read", async () => {
    bigCatalog(600);
    const ctx = { db: w.db, dataHome: w.dataHome, audit: w.audit, actor: { id: "alice", email: "alice@x.io", role: "author" as const }, procedure: "test" };
    await listSkills(ctx, {}); // the console's own index is built before the turn, as on a running server
    /** A first turn of a new session over the big catalog, with the console reading the skill list meanwhile. */
    const firstTurn = async (env: Record<string, string>) => {
      const s = await createSession(w.db, w.dataHome, alice, { provider: "offline" });
      await startTurn({ db: w.db, dataHome: w.dataHome, audit: w.audit, env }, alice, s.id, { request: "draft the release notes" });
      let reads = 0;
      while (!(await settled(s.id, 5))) {
        await listSkills(ctx, { limit: 100 });
        reads++;
      }
      expect(reads).toBeGreaterThan(0);
      const answer = (await listMessages(w.db, s.id)).find((m) => m.role === "assistant");
      expect(answer?.record?.reason).toBe("answered");
      expect(answer?.record?.events.some((e) => e.type === "skill_activated")).toBe(true);
    };
    const viaWorker = await longestStall(() => firstTurn({}));
    // The baseline, measured in the same run: the same first turn on this thread (OMNIFORGE_TURN_WORKER=0) holds it
    // for the whole ranking of the catalog (0.5-1.4 s here, against 20-100 ms via the worker). A fixed 250 ms bound
    // failed whenever other work on the shared machine slowed everything down; both sides of this ratio slow down
    // together. With the first turn on this thread too, the ratio is above 1 (measured: 30-40).
    const inThread = await longestStall(() => firstTurn({ OMNIFORGE_TURN_WORKER: "0" }));
    expect(viaWorker, `longest stall ${Math.round(viaWorker)} ms via the worker, ${Math.round(inThread)} ms on this thread`).toBeLessThan(inThread / 3);
    // Two first turns over 600 skills with the list read in a loop meanwhile: on PostgreSQL every read is round
    // trips, and the whole took 30 s on the shared machine.
  }, 90_000);

  it("streams events from the worker as they come, and stop ends the turn there", async () => {
    const s = await createSession(w.db, w.dataHome, alice, { provider: "offline" });
    await startTurn({ db: w.db, dataHome: w.dataHome, audit: w.audit, env: {} }, alice, s.id, { request: "draft the release notes" });
    const items: StreamItem[] = [];
    for await (const item of (await followTurn(w.db, alice, s.id))) items.push(item);
    expect(items.map((i) => i.event.type)).toContain("script_run");
    // The worker's audit records reach the console's audit (one writer keeps the chain).
    expect(w.audit.events.some((e) => e.type === "script_executed")).toBe(true);

    await startTurn({ db: w.db, dataHome: w.dataHome, audit: w.audit, env: {} }, alice, s.id, { request: "draft the release notes again" });
    expect(await stopTurn(w, alice, s.id)).toBe(true);
    expect(await settled(s.id, 15_000)).toBe(true);
    const last = (await listMessages(w.db, s.id)).at(-1);
    expect(last?.record?.reason).toBe("aborted");
  });

  it("is a process of its own: scripts are forked from it, not from the console, and its death fails only its turns", async () => {
    // A sleep of a length no other test uses, so its process is this turn's script.
    w.skill("slow-report", "description: Build the slow report from the nightly data. Use when asked for the slow report.", "# Slow report\n\n```bash\nsleep 19.3\n```\n");
    const pid = (await warmTurnWorker({}))!;
    expect(pid).toBeGreaterThan(0);
    expect(pid).not.toBe(process.pid);
    expect(fs.readFileSync(`/proc/${pid}/cmdline`, "utf8")).toContain("turn-worker.ts");
    // Below the console's priority: page reads first when the cores are short (turn-pool.ts).
    expect(os.getPriority(pid)).toBe(Math.min(19, os.getPriority() + TURN_WORKER_NICE));
    const s = await createSession(w.db, w.dataHome, alice, { provider: "offline" });
    await startTurn({ db: w.db, dataHome: w.dataHome, audit: w.audit, env: {} }, alice, s.id, { request: "build the slow report" });
    // The script's chain of processes starts as a child of the worker; the console forks nothing for it. Waited for
    // by its own command line: the worker's sandbox also starts short checks of its own the first time it runs.
    const parentOf = (p: number | string) => {
      try {
        const st = fs.readFileSync(`/proc/${p}/stat`, "utf8");
        return Number(st.slice(st.lastIndexOf(")") + 2).split(" ")[1]);
      } catch {
        return 0; // ended meanwhile
      }
    };
    const childrenOf = (parent: number) => fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d) && parentOf(d) === parent);
    const ancestors = (p: number) => {
      const chain: number[] = [];
      for (let q = parentOf(p); q > 1; q = parentOf(q)) chain.push(q);
      return chain;
    };
    const scriptOfTurn = () =>
      fs.readdirSync("/proc").find((d) => {
        try {
          return /^\d+$/.test(d) && fs.readFileSync(`/proc/${d}/cmdline`, "utf8") === "sleep\u000019.3\u0000" && ancestors(Number(d)).includes(pid);
        } catch {
          return false;
        }
      });
    const deadline = Date.now() + 15_000;
    while (!scriptOfTurn() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(scriptOfTurn()).toBeDefined();
    expect(childrenOf(pid).length).toBeGreaterThan(0);
    expect(childrenOf(process.pid).map(Number)).toEqual([pid]);
    // Killed mid-turn (a crash): the turn ends with the reason, the console carries on, the next turn starts a new worker.
    process.kill(pid, "SIGKILL");
    expect(await settled(s.id, 15_000)).toBe(true);
    const failed = (await listMessages(w.db, s.id)).at(-1);
    expect(failed?.record?.reason).toBe("error");
    expect(failed?.record?.error).toMatch(/turn worker stopped: signal SIGKILL/);
    await startTurn({ db: w.db, dataHome: w.dataHome, audit: w.audit, env: {} }, alice, s.id, { request: "draft the release notes" });
    expect(await settled(s.id, 30_000)).toBe(true);
    expect((await listMessages(w.db, s.id)).at(-1)?.record?.reason).toBe("answered");
    expect(await warmTurnWorker({})).not.toBe(pid);
  }, 60_000);

  it("goes with the console: a console killed mid-turn leaves no worker, no script and no sandbox folder behind", async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "turn-worker-exit-"));
    fs.chmodSync(tmp, 0o755); // the console's temp folder (TMPDIR), where the sandbox user must reach its own files
    const here = import.meta.dirname;
    const script = path.join(here, "test-support", "mini-console.ts");
    const repo = path.resolve(here, "../../..");
    // On SQLite whatever this run's database: the run's PostgreSQL cluster is known only inside vitest, and what is
    // checked here is which processes and folders outlive the console.
    const { OMNIFORGE_TEST_DATABASE: _db, ...env } = process.env;
    const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: repo, env: { ...env, TMPDIR: tmp }, stdio: ["ignore", "pipe", "pipe"] });
    try {
      const [worker, ...scripts] = await new Promise<number[]>((ok, fail) => {
        let out = "";
        child.stderr.on("data", (b: Buffer) => (out += b.toString()));
        child.stdout.on("data", (b: Buffer) => {
          out += b.toString();
          const m = /ready (\d+) ([\d,]+)/.exec(out);
          if (m) ok([Number(m[1]), ...m[2]!.split(",").map(Number)]);
        });
        child.on("exit", () => fail(new Error(`the console exited early: ${out}`)));
      });
      const folders = () => fs.readdirSync(tmp).filter((n) => n.startsWith(`omniforge-sandbox-${worker}-`));
      expect(folders()).toHaveLength(1);
      expect(scripts.length).toBeGreaterThan(0);
      child.kill("SIGKILL");
      // Gone, or a zombie waiting for its new parent to reap it: either way it has finished.
      const running = (pid: number) => {
        try {
          return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
        } catch {
          return false;
        }
      };
      const deadline = Date.now() + 10_000;
      while ([worker!, ...scripts].some(running) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect([worker!, ...scripts].filter(running)).toEqual([]);
      expect(folders()).toEqual([]);
    } finally {
      child.kill("SIGKILL");
      fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 10 });
    }
  }, 60_000);

  it("the side panel's listing comes from the worker, the same as in this thread, and sees a policy change at once", async () => {
    w.skill("env-check", "description: Check the environment variables of a deployment. Use when a deploy fails.", "# Env check\n");
    const s = await createSession(w.db, w.dataHome, alice, { provider: "offline" });
    const deps = { db: w.db, dataHome: w.dataHome, env: {} };
    const viaWorker = await listingFor(deps, alice, s.id, undefined, "draft the release notes");
    const here = await listingPreview(deps, alice, s.id, undefined, "draft the release notes");
    expect(viaWorker).toEqual(here);
    expect(viaWorker.matches[0]?.name).toBe("release-notes");
    // Someone else's session is refused in this thread, before the worker is asked.
    await expect(listingFor(deps, { id: "mallory", role: "author" }, s.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await changePolicy(w.db, { op: "block", name: "release-notes" }, { audit: new MemoryAuditSink(), actor: { id: "admin", email: "admin@x.io" } });
    const after = await listingFor(deps, alice, s.id, undefined, "draft the release notes");
    expect(after.matches.map((m) => m.name)).not.toContain("release-notes");
  });
});
