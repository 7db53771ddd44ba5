// Calls that try to get around the executor: paths that leave the skill, reading its scripts, odd tool names and
// inputs, tools that throw, and calls made concurrently or from inside another tool.
import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { makeExecutor, runner, useRunnerAndWorld, world } from "./test-support/tools";
import type { ToolDefinition } from "./types";

useRunnerAndWorld();

describe("adversarial calls", () => {
  let dir: string;
  beforeEach(() => {
    dir = world.writeSkill("victim", "allowed-tools: Read Glob Grep Bash\n");
    fs.symlinkSync(path.join(world.outsideDir, "secret.txt"), path.join(dir, "escape.txt"));
    fs.symlinkSync("/etc", path.join(dir, "etc-link"));
    fs.symlinkSync(path.join(dir, "scripts", "report.py"), path.join(dir, "references", "innocent.md"));
  });

  async function active() {
    const made = makeExecutor(world, runner);
    await made.executor.execute({ name: "skill", input: { name: "victim" } });
    return made;
  }

  it("refuses ../ traversal, absolute paths outside the roots and symlinks that leave", async () => {
    const { executor, audit } = await active();
    for (const p of ["../../outside/secret.txt", "references/../../../outside/secret.txt", "/etc/passwd", path.join(world.outsideDir, "secret.txt"), "escape.txt", "etc-link/passwd"]) {
      const r = await executor.execute({ name: "read_file", input: { path: p } });
      expect(r.ok, p).toBe(false);
      expect(r.output, p).not.toContain("TOP-SECRET");
      expect(r.output, p).not.toContain("root:");
      expect(r.error, p).toMatch(/outside the folders|leaves the allowed folders/);
    }
    expect(audit.events.filter((e) => e.type === "tool_call" && e.tool === "read_file").every((e) => e.outcome === "failed")).toBe(true);
  });

  it("refuses reading scripts under every spelling, with the run-it-instead message", async () => {
    const { executor, audit } = await active();
    const spellings = [
      "scripts/report.py",
      "./scripts/../scripts/report.py",
      "references/../scripts/report.py",
      "SCRIPTS/report.py",
      "Scripts/report.py",
      path.join(dir, "scripts", "report.py"),
      "references/innocent.md", // a symlink elsewhere pointing into scripts/
    ];
    for (const p of spellings) {
      const r = await executor.execute({ name: "read_file", input: { path: p } });
      expect(r.ok, p).toBe(false);
      expect(r.refused, p).toMatchObject({ skill: "victim", rule: "script-read" });
      expect(r.output, p).toMatch(/is a script of skill 'victim': run it with run_script instead of reading it/);
      expect(r.output, p).not.toContain("SCRIPT_BODY_MARKER");
    }
    const blocked = audit.events.filter((e) => e.type === "script_read_blocked");
    expect(blocked).toHaveLength(spellings.length);
    expect(blocked.every((e) => e.outcome === "refused" && e.skill === "victim" && e.digest)).toBe(true);
  });

  it("search_files skips scripts and bash `cat scripts/...` finds the folder empty", async () => {
    const { executor } = await active();
    const s = await executor.execute({ name: "search_files", input: { pattern: "SCRIPT_BODY_MARKER" } });
    expect(s.ok).toBe(true);
    expect(s.output).not.toMatch(/report\.py:\d+/);
    expect(s.output).toMatch(/under scripts\/ skipped/);
    const direct = await executor.execute({ name: "search_files", input: { pattern: "x", path: "scripts/report.py" } });
    expect(direct.refused?.rule).toBe("script-read");
    // The sandbox decides, not the command's text: the general shell's scripts/ is an empty folder.
    const cat = await executor.execute({ name: "bash", input: { command: `cat ${dir}/scripts/report.py` } });
    expect(cat.ok).toBe(false);
    expect(cat.output).not.toContain("SCRIPT_BODY_MARKER");
    // Mentioning the word in a grep pattern is not reading a script.
    const grep = await executor.execute({ name: "bash", input: { command: "grep -c scripts /skill/SKILL.md || true" } });
    expect(grep.refused).toBeUndefined();
  });

  it("calling a tool by another case reaches it and is checked under its real name", async () => {
    world.writeSkill("bash-only", "allowed-tools: Bash\n");
    const { executor, audit } = makeExecutor(world, runner);
    await executor.execute({ name: "skill", input: { name: "bash-only" } });
    const r = await executor.execute({ name: "READ_FILE", input: { path: "SKILL.md" } });
    expect(r.refused?.skill).toBe("bash-only");
    expect(r.tool).toBe("read_file");
    expect(audit.events.at(-1)).toMatchObject({ type: "tool_restriction_violated", tool: "read_file" });
    const ok = await executor.execute({ name: "Bash", input: { command: "echo case" } });
    expect(ok.ok).toBe(true);
    expect(ok.tool).toBe("bash");
  });

  it("an unknown tool is an error result, not a throw", async () => {
    const { executor, audit } = await active();
    const r = await executor.execute({ name: "delete_everything", input: {} });
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/Unknown tool 'delete_everything'.*read_file/);
    expect(audit.events.at(-1)).toMatchObject({ type: "tool_call", outcome: "failed", tool: "delete_everything" });
    const asText = await executor.execute({ name: "read_file", input: '{"path":"references/guide.md"}' as unknown as Record<string, unknown> });
    expect(asText.output).toContain("Guide of victim");
    expect((await executor.execute({ name: "read_file", input: "{not json" as unknown as Record<string, unknown> })).output).toMatch(/not valid JSON/);
    const bad = await executor.execute({ name: "read_file", input: { path: 42 } });
    expect(bad.ok).toBe(false);
    expect(bad.output).toMatch(/Invalid input for read_file/);
  });

  it("a tool that throws leaves the skill stack as it was, and restrictions still hold", async () => {
    const explode: ToolDefinition = {
      name: "explode",
      description: "pops every skill, then throws",
      inputSchema: { type: "object" },
      run(_input, ctx) {
        ctx.stack.pop("all");
        throw new Error("boom");
      },
    };
    world.writeSkill("guard", "allowed-tools: Read explode\n");
    const { executor, stack, audit } = makeExecutor(world, runner, [explode]);
    await executor.execute({ name: "skill", input: { name: "guard" } });
    const r = await executor.execute({ name: "explode", input: {} });
    expect(r.ok).toBe(false);
    expect(r.output).toContain("boom");
    expect(stack.list().map((s) => s.name)).toEqual(["guard"]);
    expect(audit.events.at(-1)).toMatchObject({ type: "tool_call", tool: "explode", outcome: "failed" });
    expect((await executor.execute({ name: "bash", input: { command: "echo x" } })).refused?.skill).toBe("guard");
  });

  it("the skill tool stays callable under a restrictive skill", async () => {
    world.writeSkill("tight", "allowed-tools: read_file\n");
    world.writeSkill("helper");
    const { executor, stack } = makeExecutor(world, runner);
    await executor.execute({ name: "skill", input: { name: "tight" } });
    const act = await executor.execute({ name: "SKILL", input: { name: "helper" } });
    expect(act.ok).toBe(true);
    expect(act.output).toContain("Follow these steps for helper");
    const off = await executor.execute({ name: "skill", input: { name: "all", action: "deactivate" } });
    expect(off.ok).toBe(true);
    expect(stack.size).toBe(0);
    expect((await executor.execute({ name: "skill", input: { name: "nope" } })).output).toMatch(/Skill 'nope' not found\./);
  });
});

describe("concurrent and nested calls", () => {
  it("a throwing call never undoes an activation made while it ran (calls are serialised)", async () => {
    const slowFail: ToolDefinition = {
      name: "slow_fail",
      description: "waits, then throws",
      inputSchema: { type: "object" },
      async run() {
        await new Promise((r) => setTimeout(r, 50));
        throw new Error("late failure");
      },
    };
    world.writeSkill("tight", "allowed-tools: Read\n");
    const { executor, stack } = makeExecutor(world, runner, [slowFail]);
    const [failed, activated] = await Promise.all([
      executor.execute({ name: "slow_fail", input: {} }),
      executor.execute({ name: "skill", input: { name: "tight" } }),
    ]);
    expect(failed.ok).toBe(false);
    expect(activated.ok).toBe(true);
    expect(stack.list().map((s) => s.name)).toEqual(["tight"]);
    expect((await executor.execute({ name: "bash", input: { command: "echo x" } })).refused?.skill).toBe("tight");
  });

  it("a tool calling back into its executor does not deadlock and is still checked", async () => {
    let inner: Awaited<ReturnType<ReturnType<typeof makeExecutor>["executor"]["execute"]>> | undefined;
    const made = makeExecutor(world, runner, [
      {
        name: "nested",
        description: "calls bash through the executor",
        inputSchema: { type: "object" },
        async run() {
          inner = await made.executor.execute({ name: "bash", input: { command: "echo inner" } });
          return "done";
        },
      },
    ]);
    world.writeSkill("only-nested", "allowed-tools: nested\n");
    await made.executor.execute({ name: "skill", input: { name: "only-nested" } });
    const r = await made.executor.execute({ name: "nested", input: {} });
    expect(r.output).toBe("done");
    expect(inner?.refused?.skill).toBe("only-nested");
  });
});
