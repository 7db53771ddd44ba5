// `omniforge agent run` as a person runs it: the real bin (tsx), a temp home and project, the offline provider.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, openDb } from "../../../db/client";
import { makeAgentWorld, scriptedOpenAiServer, type AgentWorld } from "../../runtime/agent/test-support/agent";
import { serveFetch } from "../../test-support/http-server";
import type { AgentEvent } from "../../runtime/agent/types";

const repo = path.resolve(import.meta.dirname, "../../..");
let w: AgentWorld;

function omniforge(args: string[], env: Record<string, string> = {}) {
  // cwd is the repo: the console database's migrations are found relative to it, as when the console runs.
  const r = spawnSync(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "agent", "run", ...args, "--home", w.home, "--project", w.project], {
    cwd: repo,
    encoding: "utf8",
    env: { ...process.env, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "", OMNIFORGE_PROVIDER: "", ...env },
    timeout: 90_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  w = makeAgentWorld();
  w.skill("hello-world", {
    description: "Greets the world from a script. Use when asked to say hello.",
    frontmatter: "allowed-tools: Bash(python3:*)",
    body: "# Hello\n\n```bash\npython3 scripts/hello.py world\n```\n",
    files: { "scripts/hello.py": "import sys\nprint('HELLO-FROM-SCRIPT', sys.argv[1])\n" },
  });
});
afterAll(() => w.cleanup());

describe("omniforge agent run", () => {
  it("--json prints one event per line, from run_started to run_finished", () => {
    const r = omniforge(["say hello to the world", "--json", "--mode", "orchestrated"]);
    expect(r.err).not.toMatch(/Error/);
    expect(r.code).toBe(0);
    const events = r.out.trim().split("\n").map((l) => JSON.parse(l) as AgentEvent);
    expect(events[0]).toMatchObject({ type: "run_started", mode: "orchestrated", provider: "offline" });
    expect(events.at(-1)).toMatchObject({ type: "run_finished", reason: "answered" });
    expect(events.find((e) => e.type === "skill_activated")).toMatchObject({ skill: "hello-world", via: "skills.load" });
    const script = events.find((e) => e.type === "script_run") as Extract<AgentEvent, { type: "script_run" }>;
    expect(script.exitCode).toBe(0);
    expect(script.stdout).toContain("HELLO-FROM-SCRIPT world");
    const msg = events.find((e) => e.type === "message") as Extract<AgentEvent, { type: "message" }>;
    expect(msg.text).toContain("rule-based stand-in");
  });

  it("prints the steps readably and says where the audit went", () => {
    const r = omniforge(["say hello to the world", "--mode", "prompt"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("▶ run: mode prompt, provider offline");
    expect(r.out).toMatch(/◆ selected 'hello-world': 'hello-world' ranked first of 1 skill \(score [0-9.]+\): name matches 'hello', 'world'/);
    expect(r.out).toMatch(/\+ activated 'hello-world' \(project, [0-9a-f]{12}\) via read_skill_md/);
    expect(r.out).toContain("HELLO-FROM-SCRIPT world");
    expect(r.out).toContain("- deactivated 'hello-world' (run_finished)");
    expect(r.out).toMatch(/■ answered after (1 model call|[2-9] model calls), /);
    expect(r.out).toContain("events kept in memory (no console.db");
  });

  it("writes the audit to <home>/console.db when the console's database is there", () => {
    const dbFile = path.join(w.home, "console.db");
    openDb(dbFile);
    closeDb(dbFile);
    try {
      const r = omniforge(["say hello to the world", "--user", "carol"]);
      expect(r.code).toBe(0);
      expect(r.out).toContain(`audit: written to ${dbFile}`);
      const db = new Database(dbFile, { readonly: true });
      const rows = db.prepare("select type, actor_id, skill, tool, model, mode, outcome, source_agent, source_host from audit_events order by id").all() as Record<string, string>[];
      db.close();
      // The command line's turns say where they came from: the audit page does not take them for the playground's.
      expect(new Set(rows.map((x) => `${x.source_agent}@${x.source_host}`))).toEqual(new Set([`omniforge-cli@${os.hostname()}`]));
      const types = rows.map((x) => x.type);
      expect(types).toEqual(expect.arrayContaining(["agent_run_started", "skill_activated", "script_executed", "skill_deactivated", "agent_run_finished"]));
      expect(rows.find((x) => x.type === "skill_activated")).toMatchObject({ actor_id: "carol", skill: "hello-world", model: "offline-rules-1", mode: "tool" });
    } finally {
      fs.rmSync(dbFile, { force: true });
      fs.rmSync(dbFile + "-wal", { force: true });
      fs.rmSync(dbFile + "-shm", { force: true });
    }
  });

  it("follows a skill's prose offline: curl that allowed-tools does not permit is refused and printed; allowed, it runs sandboxed and fails for want of network", () => {
    const body = "# Weather\n\nTo answer, run `curl -s wttr.in/Oslo?format=3` and report what it prints.\n";
    const dir = w.skill("weather-now", { description: "Tells the current weather for a city. Use when asked about the weather.", frontmatter: "allowed-tools: Read", body });
    try {
      const refused = omniforge(["tell the current weather in Oslo"]);
      expect(refused.code).toBe(0);
      expect(refused.out).toContain('→ bash {"command":"curl -s wttr.in/Oslo?format=3"}');
      expect(refused.out).toMatch(/✗ REFUSED by 'weather-now' \(allowed-tools\) bash/);
      expect(refused.out).not.toContain("nothing to execute");
      w.skill("weather-now", { description: "Tells the current weather for a city. Use when asked about the weather.", frontmatter: "allowed-tools: Read Bash(curl:*)", body });
      const events = omniforge(["tell the current weather in Oslo", "--json"]).out.trim().split("\n").map((l) => JSON.parse(l) as AgentEvent);
      const run = events.find((e) => e.type === "script_run") as Extract<AgentEvent, { type: "script_run" }>;
      expect(run.command.join(" ")).toContain("curl -s wttr.in/Oslo?format=3");
      expect(run.exitCode).not.toBe(0);
      expect(events.find((e) => e.type === "tool_result" && e.tool === "bash")).toMatchObject({ ok: false });
      expect(events.some((e) => e.type === "tool_result" && e.refused)).toBe(false);
      expect(events.at(-1)).toMatchObject({ type: "run_finished", reason: "answered" });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  // Ctrl-C ended the run with a failed run's 1; a shell gives a process a signal ended 128 + its number.
  it.each([
    ["SIGTERM", "a CI job's timeout", 143],
    ["SIGINT", "Ctrl-C", 130],
  ] as const)("a %s mid-run (%s) ends it with exit %i and removes its scratch folder", async (signal, _who, exit) => {
    const silent = await serveFetch(() => new Promise<Response>(() => {})); // the model never answers
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-agent-term-"));
    fs.chmodSync(tmp, 0o755);
    try {
      const child = spawn(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "agent", "run", "hi", "--provider", "openai", "--json", "--home", w.home, "--project", w.project], {
        cwd: repo,
        env: { ...process.env, TMPDIR: tmp, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "", OPENAI_BASE_URL: `${silent.url}/v1`, OPENAI_API_KEY: "k", OMNIFORGE_MODEL: "m" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      child.stdout.on("data", (b: Buffer) => (out += b.toString()));
      // Terminated once the run is under way (its first event is out), which is after the scratch folder is made.
      await new Promise<void>((ok) => child.stdout.on("data", () => (out.includes("run_started") ? ok() : undefined)));
      expect(fs.readdirSync(tmp).filter((n) => n.startsWith("omniforge-agent-scratch-"))).toHaveLength(1);
      child.kill(signal);
      const code = await new Promise<number | null>((ok) => child.on("exit", (c) => ok(c)));
      expect(code).toBe(exit);
      expect(out).toContain('"reason":"aborted"');
      expect(fs.readdirSync(tmp).filter((n) => n.startsWith("omniforge-agent-scratch-"))).toEqual([]);
    } finally {
      await silent.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it("OMNIFORGE_SKILLS_ENABLED=0 (or config.yaml skills.enabled: false) runs without skills: nothing listed, nothing activated", () => {
    const events = (r: { out: string }) => r.out.trim().split("\n").map((l) => JSON.parse(l) as AgentEvent);
    const off = omniforge(["say hello to the world", "--json"], { OMNIFORGE_SKILLS_ENABLED: "0" });
    expect(off.code).toBe(0);
    expect(events(off)[0]).toMatchObject({ type: "run_started", listing: { total: 0, listed: 0 } });
    expect(events(off).filter((e) => e.type === "skill_activated" || e.type === "script_run")).toEqual([]);
    const config = path.join(w.home, "config.yaml");
    fs.writeFileSync(config, "skills:\n  enabled: false\n");
    try {
      expect(events(omniforge(["say hello to the world", "--json"]))[0]).toMatchObject({ listing: { total: 0 } });
      // The variable wins over the file: on again.
      const on = events(omniforge(["say hello to the world", "--json"], { OMNIFORGE_SKILLS_ENABLED: "1" }));
      expect(on.find((e) => e.type === "skill_activated")).toMatchObject({ skill: "hello-world" });
    } finally {
      fs.rmSync(config, { force: true });
    }
  });

  it("honours a skill's model field: the rest of the run goes to that model on the same endpoint", async () => {
    const dir = w.skill("big-thinker", { description: "Think hard about puzzles.", frontmatter: "model: big-model", body: "# Think\n\nTHINK-BODY.\n" });
    const server = await scriptedOpenAiServer((_body, n) => (n === 0 ? { toolCalls: [{ name: "skill", arguments: { name: "big-thinker" } }] } : { content: "thought" }));
    try {
      const out = await new Promise<string>((resolve) => {
        const p = spawn(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "agent", "run", "think about a puzzle", "--provider", "openai", "--json", "--home", w.home, "--project", w.project], {
          cwd: repo,
          env: { ...process.env, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "", OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "k", OMNIFORGE_MODEL: "small-model" },
        });
        let text = "";
        p.stdout.on("data", (b: Buffer) => (text += b.toString()));
        p.on("close", () => resolve(text));
      });
      const events = out.trim().split("\n").map((l) => JSON.parse(l) as AgentEvent);
      expect(events.find((e) => e.type === "skill_model")).toMatchObject({ skill: "big-thinker", model: "big-model", used: true, provider: "openai" });
      expect(server.requests.map((b) => b.model)).toEqual(["small-model", "big-model"]);
    } finally {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses bad input with a usage message and exit 2", () => {
    expect(omniforge([]).code).toBe(2);
    const bad = omniforge(["hi", "--mode", "telepathy"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('unknown mode "telepathy"');
    const noKey = omniforge(["hi", "--provider", "anthropic"], { ANTHROPIC_API_KEY: "" });
    expect(noKey.code).toBe(2);
    expect(noKey.err).toContain("needs ANTHROPIC_API_KEY");
  });
});
