// Test support for the tools tests (not used by production code): real skill folders in a temp dir,
// a registry-like resolver over them, and a script runner (the real sandbox when it is usable here,
// otherwise a plain child process with a minimal environment: a real process either way).
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { parse as parseYaml } from "yaml";
import { MemoryAuditSink } from "../../audit/events";
import { createSandbox, DEFAULT_SANDBOX_GID, DEFAULT_SANDBOX_UID } from "../../sandbox/index";
import type { ScriptRequest, ScriptResult, ScriptRunner, SandboxStatus } from "../../sandbox/types";
import { builtinTools, createSkillTool, type SkillForActivation } from "../builtin/index";
import { Executor } from "../executor";
import { parseAllowedTools } from "../../skill/allowed-tools";
import { SkillStack } from "../stack";
import type { ToolDefinition } from "../types";

export interface World {
  root: string;
  skillsDir: string;
  scratchDir: string;
  outsideDir: string;
  writeSkill(name: string, frontmatterExtra?: string, files?: Record<string, string>): string;
  resolve(name: string): SkillForActivation | null;
  cleanup(): void;
}

export function makeWorld(): World {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-tools-")));
  fs.chmodSync(root, 0o755); // mkdtemp makes it 0700; the sandbox user must be able to reach the scratch below it
  const skillsDir = path.join(root, "skills");
  const scratchDir = path.join(root, "scratch");
  const outsideDir = path.join(root, "outside");
  for (const d of [skillsDir, scratchDir, outsideDir]) fs.mkdirSync(d, { recursive: true });
  // As a host does: the session scratch is created for the sandbox user, who runs the scripts.
  if (process.getuid?.() === 0) fs.chownSync(scratchDir, DEFAULT_SANDBOX_UID, DEFAULT_SANDBOX_GID);
  fs.writeFileSync(path.join(outsideDir, "secret.txt"), "TOP-SECRET outside the skill\n");
  return {
    root,
    skillsDir,
    scratchDir,
    outsideDir,
    writeSkill(name, extra = "", files = {}) {
      const dir = path.join(skillsDir, name);
      fs.mkdirSync(path.join(dir, "scripts"), { recursive: true });
      fs.mkdirSync(path.join(dir, "references"), { recursive: true });
      fs.writeFileSync(path.join(dir, "SKILL.md"), `---\nname: ${name}\ndescription: Test skill ${name}.\n${extra}---\n\n# ${name}\n\nFollow these steps for ${name}.\n`);
      fs.writeFileSync(path.join(dir, "references", "guide.md"), `Guide of ${name}\nline 2\n`);
      fs.writeFileSync(
        path.join(dir, "scripts", "report.py"),
        "import sys\nSCRIPT_BODY_MARKER = 1\nprint('report', ' '.join(sys.argv[1:]))\n",
      );
      fs.writeFileSync(path.join(dir, "scripts", "fail.sh"), "echo failing >&2\nexit 3\n");
      for (const [rel, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
        fs.writeFileSync(path.join(dir, rel), text);
      }
      return dir;
    },
    resolve(name) {
      const dir = path.join(skillsDir, name);
      const file = path.join(dir, "SKILL.md");
      if (!/^[a-z0-9-]+$/.test(name) || !fs.existsSync(file)) return null;
      const text = fs.readFileSync(file, "utf8");
      const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
      if (!m) return null;
      const fm = parseYaml(m[1]!) as Record<string, unknown>;
      const allowed = fm["allowed-tools"] === undefined ? undefined : parseAllowedTools(fm["allowed-tools"]);
      return {
        name,
        layer: "project",
        digest: crypto.createHash("sha256").update(text).digest("hex"),
        baseDir: dir,
        ...(allowed ? { allowedTools: allowed } : {}),
        body: m[2]!,
      };
    },
    cleanup() {
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

const INTERP: Record<string, string> = { ".py": "/usr/bin/python3", ".sh": "/usr/bin/bash", ".js": "/usr/bin/node" };

/** Unsandboxed fallback: spawns the real interpreter with a minimal env, cwd = scratch. */
export class ChildProcessRunner implements ScriptRunner {
  async status(): Promise<SandboxStatus> {
    return { mode: "unsafe", detail: "test runner: plain child processes", checks: [] };
  }
  run(req: ScriptRequest): Promise<ScriptResult> {
    const argv = req.command !== undefined
      ? ["/usr/bin/bash", "-c", req.command]
      : [INTERP[path.extname(req.script ?? "")] ?? path.join(req.skillDir, req.script ?? ""), path.join(req.skillDir, req.script ?? ""), ...(req.args ?? [])];
    const started = performance.now();
    return new Promise((resolve) => {
      const child = spawn(argv[0]!, argv.slice(1), { cwd: req.scratchDir, env: { PATH: "/usr/bin:/bin", LANG: "C.UTF-8" } as unknown as NodeJS.ProcessEnv });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      if (req.stdin !== undefined) child.stdin.end(req.stdin);
      else child.stdin.end();
      child.on("close", (code) =>
        resolve({ exitCode: code, stdout, stderr, truncated: false, timedOut: false, durationMs: performance.now() - started, sandboxed: false, command: argv }),
      );
    });
  }
}

/** The real sandbox when it can isolate on this machine, else the child-process runner (and says so). */
export async function makeRunner(): Promise<{ runner: ScriptRunner; sandboxed: boolean; close(): Promise<void> }> {
  const sandbox = createSandbox();
  const st = await sandbox.status();
  if (st.mode === "sandboxed" || st.mode === "sandboxed-no-cgroup") return { runner: sandbox, sandboxed: true, close: () => sandbox.close() };
  await sandbox.close();
  console.warn(`tools tests: sandbox is "${st.mode}" here (${st.detail}); script tests use plain child processes`);
  return { runner: new ChildProcessRunner(), sandboxed: false, close: async () => {} };
}

export function makeExecutor(world: World, runner?: ScriptRunner, extraTools: ToolDefinition[] = []) {
  const audit = new MemoryAuditSink();
  const stack = new SkillStack();
  const executor = new Executor({
    tools: [...builtinTools(), createSkillTool({ resolve: (n) => world.resolve(n) }), ...extraTools],
    audit,
    context: { sessionId: "sess-1", userId: "user-1", scratchDir: world.scratchDir, stack, runId: "run-1", model: "offline", mode: "tool", ...(runner ? { runner } : {}) },
  });
  return { executor, audit, stack };
}

// `runner` and `world` are live bindings: the hooks of useRunnerAndWorld() set them, and the tests of the file that
// calls it read them as they run.
export let runner: ScriptRunner;
export let world: World;

/** One script runner for the test file, and a fresh world for each of its tests. */
export function useRunnerAndWorld(): void {
  let closeRunner: () => Promise<void>;
  beforeAll(async () => {
    const r = await makeRunner();
    runner = r.runner;
    closeRunner = r.close;
  });
  afterAll(async () => closeRunner?.());
  beforeEach(() => {
    world = makeWorld();
  });
  afterEach(() => world.cleanup());
}
