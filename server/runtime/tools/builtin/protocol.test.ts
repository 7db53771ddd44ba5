import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { makeExecutor, runner, useRunnerAndWorld, world } from "../test-support/tools";
import { orchestratedTools } from "./index";

useRunnerAndWorld();
beforeEach(() => {
  world.writeSkill("pdf", "allowed-tools: Read\n", { "references/forms.md": "Fill the form." });
  world.writeSkill("data");
});

async function loaded() {
  const made = makeExecutor(world, runner, orchestratedTools());
  await made.executor.execute({ name: "skill", input: { name: "pdf" } });
  await made.executor.execute({ name: "skill", input: { name: "data" } });
  return made;
}

describe("skills.read / skills.run_script", () => {
  it("read a loaded skill's file by skill name; Read allows skills.read, not skills.run_script", async () => {
    const { executor } = await loaded();
    const r = await executor.execute({ name: "skills.read", input: { skill: "pdf", path: "references/forms.md" } });
    expect(r.ok).toBe(true);
    expect(r.output).toBe("Fill the form.");
    const run = await executor.execute({ name: "skills.run_script", input: { skill: "data", path: "scripts/report.py" } });
    expect(run.refused).toMatchObject({ skill: "pdf", rule: "allowed-tools" });
  });

  it("blocks scripts and files outside the selected skill", async () => {
    const { executor, audit } = await loaded();
    const s = await executor.execute({ name: "skills.read", input: { path: "./scripts/../scripts/report.py" } });
    expect(s.refused).toMatchObject({ skill: "data", rule: "script-read" });
    expect(audit.events.at(-1)?.type).toBe("script_read_blocked");
    const other = await executor.execute({ name: "skills.read", input: { skill: "data", path: "../pdf/references/forms.md" } });
    expect(other.ok).toBe(false);
    expect(other.output).toMatch(/not a file of skill 'data'/);
    const none = await executor.execute({ name: "skills.read", input: { skill: "ghost", path: "SKILL.md" } });
    expect(none.output).toMatch(/Skill 'ghost' is not active/);
  });

  it("runs a script of a loaded skill once nothing restricts it", async () => {
    const { executor } = await loaded();
    await executor.execute({ name: "skill", input: { name: "all", action: "deactivate" } });
    await executor.execute({ name: "skill", input: { name: "data" } });
    const run = await executor.execute({ name: "skills.run_script", input: { path: "scripts/report.py", args: ["x"] } });
    expect(run.ok).toBe(true);
    expect(run.output).toContain("report x");
  });
});

describe("spec 004 script input and output, every script tool", () => {
  beforeEach(() => {
    world.writeSkill("envy", "", {
      "scripts/env.py":
        "import os, sys\nfor k in sorted(sys.argv[1:]):\n    print(k, os.environ.get(k, '-'))\nprint('cwd', os.getcwd())\n",
    });
  });

  for (const tool of ["run_script", "skills.run_script"]) {
    it(`${tool} takes {skill, path, args, env, workdir} and returns {path, exit_code, stdout, stderr} with duration, truncated, sandboxed`, async () => {
      const { executor } = makeExecutor(world, runner, orchestratedTools());
      await executor.execute({ name: "skill", input: { name: "envy" } });
      fs.mkdirSync(path.join(world.scratchDir, "out", "deep"), { recursive: true });
      fs.chmodSync(path.join(world.scratchDir, "out"), 0o777);
      fs.chmodSync(path.join(world.scratchDir, "out", "deep"), 0o777);
      const r = await executor.execute({
        name: tool,
        input: {
          skill: "envy",
          path: "scripts/env.py",
          args: ["KEY", "PATH", "LD_PRELOAD", "HTTPS_PROXY", "http_proxy", "PYTHONPATH"],
          env: { KEY: "VALUE", PATH: "/skill/scripts:/usr/bin", LD_PRELOAD: "/scratch/evil.so", HTTPS_PROXY: "http://evil:1", http_proxy: "http://evil:2", PYTHONPATH: "/scratch" },
          workdir: "out/deep",
        },
      });
      expect(r.ok).toBe(true);
      const out = JSON.parse(r.output);
      expect(out).toMatchObject({ path: "scripts/env.py", exit_code: 0, stderr: "", truncated: false, workdir: "out/deep" });
      expect(typeof out.duration_ms).toBe("number");
      expect(typeof out.sandboxed).toBe("boolean");
      expect(out.stdout).toContain("KEY VALUE");
      // Only KEY reached the script; the sandbox's own PATH stays.
      expect(out.stdout).not.toContain("/skill/scripts");
      expect(out.stdout).toMatch(/LD_PRELOAD -\n/);
      expect(out.stdout).toMatch(/HTTPS_PROXY -\n/);
      expect(out.stdout).toMatch(/http_proxy -\n/);
      expect(out.stdout).toMatch(/PYTHONPATH -\n/);
      expect(out.stdout).toMatch(/cwd .*out\/deep\n/);
      expect(out.env_dropped.map((d: string) => d.split(":")[0]).sort()).toEqual(["HTTPS_PROXY", "LD_PRELOAD", "PATH", "PYTHONPATH", "http_proxy"]);
    });

    it(`${tool} refuses a workdir outside the scratch folder, by spelling or through a symlink`, async () => {
      const { executor } = makeExecutor(world, runner, orchestratedTools());
      await executor.execute({ name: "skill", input: { name: "envy" } });
      fs.symlinkSync(world.outsideDir, path.join(world.scratchDir, "link"));
      for (const workdir of ["..", "../outside", world.outsideDir, "link", "/scratch/../outside"]) {
        const r = await executor.execute({ name: tool, input: { path: "scripts/env.py", workdir } });
        expect(r.ok, workdir).toBe(false);
        expect(r.output, workdir).toMatch(/outside the scratch folder/);
      }
      const missing = await executor.execute({ name: tool, input: { path: "scripts/env.py", workdir: "nope" } });
      expect(missing.output).toMatch(/does not exist in the scratch folder/);
    });
  }

  it("run_script still takes `script` (our older name for path)", async () => {
    const { executor } = makeExecutor(world, runner);
    await executor.execute({ name: "skill", input: { name: "data" } });
    const r = await executor.execute({ name: "run_script", input: { script: "scripts/report.py", args: ["q"] } });
    expect(JSON.parse(r.output)).toMatchObject({ path: "scripts/report.py", exit_code: 0, stdout: "report q\n" });
  });
});

describe("skills.read of a missing file", () => {
  it("says which files the skill has", async () => {
    const { executor } = await loaded();
    const r = await executor.execute({ name: "skills.read", input: { skill: "pdf", path: "references/form.md" } });
    expect(r.ok).toBe(false);
    expect(r.output).toContain(`No file "references/form.md" in skill 'pdf'. Its files: SKILL.md, references/forms.md, references/guide.md, scripts/fail.sh, scripts/report.py.`);
  });

  it("a script stays a script, existing or not", async () => {
    const { executor } = await loaded();
    const r = await executor.execute({ name: "skills.read", input: { skill: "data", path: "scripts/nope.py" } });
    expect(r.refused).toMatchObject({ rule: "script-read" });
  });
});

describe("refusals in orchestrated mode", () => {
  it("tell the model to unload with skills.unload, never to use the skill tool (it has none)", async () => {
    world.writeSkill("readonly", "allowed-tools: Read\n");
    const { executor } = makeExecutor(world, runner, orchestratedTools());
    executor.context.mode = "orchestrated";
    const none = await executor.execute({ name: "skills.run_script", input: { path: "scripts/report.py" } });
    expect(none.output).toContain("No skill is loaded: load one with skills.load first");
    await executor.execute({ name: "skill", input: { name: "readonly" } });
    const ghost = await executor.execute({ name: "skills.read", input: { skill: "ghost", path: "SKILL.md" } });
    expect(ghost.output).toContain("Skill 'ghost' is not loaded; load it with skills.load first");
    const r = await executor.execute({ name: "skills.run_script", input: { path: "scripts/report.py" } });
    expect(r.refused).toMatchObject({ skill: "readonly" });
    expect(r.output).toContain("unload the skill with skills.unload");
    expect(r.output).not.toMatch(/skill tool|`skill`/);
    const read = await executor.execute({ name: "skills.read", input: { path: "scripts/report.py" } });
    expect(read.output).toBe("scripts/report.py is a script of skill 'readonly': run it with skills.run_script instead of reading it");
  });
});
