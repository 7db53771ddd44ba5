// Spec 004: "The runtime MUST define and document how it executes scripts". One real script per row of the
// documented mapping, run through run_script and skills.run_script (the real sandbox, or its explicit unsafe
// mode where it cannot isolate), and the two READMEs' tables checked against the code, so they cannot drift.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../sandbox/index";
import { INTERPRETERS } from "../../sandbox/script-path";
import { makeExecutor, makeWorld, type World } from "../test-support/tools";
import { orchestratedTools, runScriptTool, skillsRunScriptTool } from "./index";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = createSandbox();
  const st = await sandbox.status();
  if (st.mode !== "sandboxed" && st.mode !== "sandboxed-no-cgroup") {
    await sandbox.close();
    console.warn(`interpreters test: the sandbox is "${st.mode}" here; scripts run in its unsafe mode`);
    sandbox = createSandbox({ unsafe: true });
  }
});
afterAll(async () => sandbox?.close());

let world: World;
let dir: string;
beforeEach(() => {
  world = makeWorld();
  dir = world.writeSkill("langs", "", {
    "scripts/a.py": "import sys\nprint('python', sys.version_info[0], *sys.argv[1:])\n",
    "scripts/a.sh": "echo bash \"${BASH_VERSINFO[0]}\"; echo \"$@\"\n",
    "scripts/a.bash": "echo \"bash-ext $1\"\n",
    "scripts/a.js": "console.log('node', typeof process.versions.node, process.argv.slice(2).join(' '))\n",
    "scripts/a.mjs": "console.log('node-esm', import.meta.url.startsWith('file:'))\n",
    "scripts/a.cjs": "console.log('node-cjs', typeof require)\n",
    // A #! line, no extension, NOT executable: run by its interpreter all the same.
    "scripts/shebang": "#!/usr/bin/env python3\nprint('shebang python')\n",
    // The extension wins over a #! line.
    "scripts/ext-wins.py": "#!/bin/bash\nprint('extension wins')\n",
    "scripts/data": "just text\n",
  });
  // An executable program without a #! line runs as itself.
  fs.copyFileSync("/usr/bin/echo", path.join(dir, "scripts", "tool"));
  fs.chmodSync(path.join(dir, "scripts", "tool"), 0o755);
  fs.chmodSync(path.join(dir, "scripts", "shebang"), 0o644);
});
afterEach(() => world.cleanup());

const ROWS: [string, string[], RegExp][] = [
  ["scripts/a.py", ["x"], /^python 3 x\n$/],
  ["scripts/a.sh", ["y", "z"], /^bash \d+\ny z\n$/],
  ["scripts/a.bash", ["b"], /^bash-ext b\n$/],
  ["scripts/a.js", ["j"], /^node string j\n$/],
  ["scripts/a.mjs", [], /^node-esm true\n$/],
  ["scripts/a.cjs", [], /^node-cjs function\n$/],
  ["scripts/shebang", [], /^shebang python\n$/],
  ["scripts/ext-wins.py", [], /^extension wins\n$/],
  ["scripts/tool", ["as", "itself"], /^as itself\n$/],
];

describe("how a script is executed", () => {
  for (const tool of ["run_script", "skills.run_script"]) {
    it(`${tool}: by extension, by #! line (executable bit or not), or as itself when executable`, async () => {
      const { executor } = makeExecutor(world, sandbox, orchestratedTools());
      await executor.execute({ name: "skill", input: { name: "langs" } });
      for (const [script, args, want] of ROWS) {
        const r = await executor.execute({ name: tool, input: { path: script, args } });
        expect(r.ok, `${script}: ${r.output}`).toBe(true);
        const out = JSON.parse(r.output) as { path: string; exit_code: number; stdout: string };
        expect(out.path).toBe(script);
        expect(out.stdout, script).toMatch(want);
      }
      const data = await executor.execute({ name: tool, input: { path: "scripts/data" } });
      expect(data.ok).toBe(false);
      expect(data.output).toContain("Cannot tell how to run scripts/data: use .py, .sh, .js or .mjs, add a #! line, or make it executable");
    });
  }

  it("the tools tell the model the mapping", () => {
    for (const d of [runScriptTool.description, skillsRunScriptTool.description]) {
      expect(d).toContain(".py with python3, .sh and .bash with bash, .js, .mjs and .cjs with node; another file by its #! line, or itself when executable");
    }
  });

  it("both READMEs document exactly the code's mapping", () => {
    const byInterpreter = new Map<string, string[]>();
    for (const [ext, interp] of Object.entries(INTERPRETERS)) byInterpreter.set(interp, [...(byInterpreter.get(interp) ?? []), `*${ext}`]);
    for (const readme of ["../../sandbox/README.md", "../README.md"]) {
      const text = fs.readFileSync(path.join(__dirname, readme), "utf8");
      for (const [interp, exts] of byInterpreter) {
        const row = text.split("\n").find((l) => l.includes(`\`${interp} /skill/<path> args…\``));
        expect(row, `${readme}: ${interp}`).toBeDefined();
        expect([...row!.matchAll(/`(\*\.[a-z]+)`/g)].map((m) => m[1]).sort(), `${readme}: ${interp}`).toEqual([...exts].sort());
      }
      expect(text).toMatch(/other, with a `#!` line \| the shebang's interpreter/);
      expect(text).toMatch(/other, executable, no `#!` \| the file itself/);
    }
  });
});
