// The executor's rules: the allowed-tools restriction matrix, nested skills, the audit of every call and the tool
// specs given to the model. Calls that try to get around them are in executor-adversarial.test.ts.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { endRun } from "./lifecycle";
import { makeExecutor, runner, useRunnerAndWorld, world } from "./test-support/tools";

useRunnerAndWorld();

type Call = { name: string; input: Record<string, unknown> };

/**
 * The restriction matrix: each allowed-tools form, a call it allows and a call it refuses.
 * "allowed" means the executor let it run (the tool may still fail on its own, e.g. npm absent).
 */
const MATRIX: { form: string; frontmatter: string; allowed: Call; refused: Call }[] = [
  {
    form: "YAML list",
    frontmatter: "allowed-tools:\n  - Read\n  - Glob\n",
    allowed: { name: "read_file", input: { path: "references/guide.md" } },
    refused: { name: "bash", input: { command: "echo hi" } },
  },
  {
    form: "space-separated string",
    frontmatter: "allowed-tools: Read Write\n",
    allowed: { name: "write_file", input: { path: "out.txt", content: "x" } },
    refused: { name: "list_files", input: {} },
  },
  {
    form: "comma-separated string",
    frontmatter: "allowed-tools: Read, Grep\n",
    allowed: { name: "search_files", input: { pattern: "Guide" } },
    refused: { name: "write_file", input: { path: "refused.txt", content: "x" } },
  },
  {
    form: "Bash(git:*)",
    frontmatter: 'allowed-tools: "Bash(git:*) Read"\n',
    allowed: { name: "bash", input: { command: "git --version" } },
    refused: { name: "bash", input: { command: "echo not-git" } },
  },
  {
    form: "Bash(python scripts/*) on run_script",
    frontmatter: "allowed-tools: Bash(python scripts/*)\n",
    allowed: { name: "run_script", input: { script: "scripts/report.py", args: ["--x"] } },
    refused: { name: "run_script", input: { script: "scripts/fail.sh" } },
  },
  {
    form: "Bash(npm run test) exact",
    frontmatter: "allowed-tools: Bash(npm run test)\n",
    allowed: { name: "bash", input: { command: "npm run test" } },
    refused: { name: "bash", input: { command: "npm run test; echo pwned" } },
  },
  {
    form: "our bare names",
    frontmatter: "allowed-tools: read_file list_files\n",
    allowed: { name: "list_files", input: { path: "references" } },
    refused: { name: "run_script", input: { script: "scripts/report.py" } },
  },
  {
    form: "lower-case Claude Code names",
    frontmatter: "allowed-tools: read, bash\n",
    allowed: { name: "bash", input: { command: "echo lower" } },
    refused: { name: "write_file", input: { path: "refused.txt", content: "x" } },
  },
  {
    form: "upper-case name",
    frontmatter: "allowed-tools: [READ]\n",
    allowed: { name: "read_file", input: { path: "SKILL.md" } },
    refused: { name: "list_files", input: {} },
  },
  {
    form: "Claude Code Edit -> write_file",
    frontmatter: "allowed-tools: Edit\n",
    allowed: { name: "write_file", input: { path: "notes.txt", content: "v1" } },
    refused: { name: "read_file", input: { path: "references/guide.md" } },
  },
];

describe("restriction matrix", () => {
  for (const row of MATRIX) {
    it(`${row.form}: allows ${row.allowed.name}, refuses ${row.refused.name} without running it`, async () => {
      world.writeSkill("restricted", row.frontmatter);
      const { executor, audit } = makeExecutor(world, runner);
      const act = await executor.execute({ name: "skill", input: { name: "restricted" } });
      expect(act.ok).toBe(true);

      const ok = await executor.execute({ ...row.allowed, callId: "c-allowed" });
      expect(ok.refused).toBeUndefined();
      const allowedEvent = audit.events.find((e) => (e.details as { callId?: string })?.callId === "c-allowed");
      expect(allowedEvent?.type).toBe("tool_call");

      const before = audit.events.filter((e) => e.type === "script_executed").length;
      const no = await executor.execute({ ...row.refused, callId: "c-refused" });
      expect(no.ok).toBe(false);
      expect(no.refused).toMatchObject({ skill: "restricted", rule: "allowed-tools" });
      expect(no.refused!.allowed.length).toBeGreaterThan(0);
      expect(no.output).toContain("restricted");
      expect(no.output).toContain(no.refused!.allowed[0]!);
      const refusedEvent = audit.events.find((e) => (e.details as { callId?: string })?.callId === "c-refused");
      expect(refusedEvent).toMatchObject({ type: "tool_restriction_violated", outcome: "refused", skill: "restricted", tool: row.refused.name });
      // It never ran: no process started, no file written.
      expect(audit.events.filter((e) => e.type === "script_executed").length).toBe(before);
      expect(fs.existsSync(path.join(world.scratchDir, "refused.txt"))).toBe(false);
    });
  }

  it("run_script allowed by Bash(python scripts/*) really runs the script", async () => {
    world.writeSkill("py", "allowed-tools: Bash(python scripts/*)\n");
    const { executor, audit } = makeExecutor(world, runner);
    await executor.execute({ name: "skill", input: { name: "py" } });
    const r = await executor.execute({ name: "run_script", input: { script: "./scripts/report.py", args: ["--x", "a b"] } });
    expect(r.ok).toBe(true);
    expect(r.output).toContain("report --x a b");
    expect(JSON.parse(r.output)).toMatchObject({ path: "scripts/report.py", exit_code: 0, stderr: "" });
    const ev = audit.events.find((e) => e.type === "script_executed");
    expect(ev).toMatchObject({ skill: "py", tool: "run_script", outcome: "ok", details: { exitCode: 0 } });
    expect((ev!.details as { command: string[] }).command.join(" ")).toContain("scripts/report.py");
  });
});

describe("nested skills", () => {
  it("two active skills restrict by intersection; deactivating the top restores the first's set; all clears", async () => {
    world.writeSkill("outer", 'allowed-tools: "Read, Bash(git:*), Write"\n');
    world.writeSkill("inner", "allowed-tools: Read Bash\n");
    const { executor, stack } = makeExecutor(world, runner);
    await executor.execute({ name: "skill", input: { name: "outer" } });
    await executor.execute({ name: "skill", input: { name: "inner" } });
    expect(stack.list().map((s) => s.name)).toEqual(["outer", "inner"]);

    // inner allows any Bash, outer only git: the lower skill refuses, and is named.
    const ls = await executor.execute({ name: "bash", input: { command: "echo x" } });
    expect(ls.refused?.skill).toBe("outer");
    // outer allows Write, inner does not.
    const w = await executor.execute({ name: "write_file", input: { path: "a.txt", content: "a" } });
    expect(w.refused?.skill).toBe("inner");
    // Both allow Read: relative paths resolve against the top skill.
    const r = await executor.execute({ name: "read_file", input: { path: "SKILL.md" } });
    expect(r.ok).toBe(true);
    expect(r.output).toContain("name: inner");

    // Only the top can be deactivated.
    const wrong = await executor.execute({ name: "skill", input: { name: "outer", action: "deactivate" } });
    expect(wrong.ok).toBe(false);
    expect(wrong.output).toMatch(/'inner' was activated after it/);
    expect(stack.size).toBe(2);

    await executor.execute({ name: "skill", input: { name: "inner", action: "deactivate" } });
    expect((await executor.execute({ name: "write_file", input: { path: "a.txt", content: "a" } })).ok).toBe(true);
    expect((await executor.execute({ name: "bash", input: { command: "echo x" } })).refused?.skill).toBe("outer");

    await executor.execute({ name: "skill", input: { name: "all", action: "deactivate" } });
    expect(stack.size).toBe(0);
    const free = await executor.execute({ name: "bash", input: { command: "echo free" } });
    expect(free.refused).toBeUndefined();
    expect(free.output).toContain("free");
  });

  it("activating a skill without allowed-tools on top never widens the restriction", async () => {
    world.writeSkill("narrow", "allowed-tools: Read\n");
    world.writeSkill("open");
    const { executor } = makeExecutor(world, runner);
    await executor.execute({ name: "skill", input: { name: "narrow" } });
    await executor.execute({ name: "skill", input: { name: "open" } });
    expect((await executor.execute({ name: "bash", input: { command: "echo x" } })).refused?.skill).toBe("narrow");
  });

  it("re-activating an active skill moves it to the top without duplicating it", async () => {
    world.writeSkill("a");
    world.writeSkill("b");
    const { executor, stack, audit } = makeExecutor(world, runner);
    for (const n of ["a", "b", "a"]) await executor.execute({ name: "skill", input: { name: n } });
    expect(stack.list().map((s) => s.name)).toEqual(["b", "a"]);
    expect(audit.events.filter((e) => e.type === "skill_activated").at(-1)?.details).toMatchObject({ reactivated: true });
  });

  it("a finished run deactivates every skill it activated", async () => {
    world.writeSkill("a", "allowed-tools: Read\n");
    const { executor, stack, audit } = makeExecutor(world, runner);
    await executor.execute({ name: "skill", input: { name: "a" } });
    expect(stack.top()?.activatedBy).toBe("run-1");
    expect(endRun(executor.context).map((s) => s.name)).toEqual(["a"]);
    expect(stack.size).toBe(0);
    expect(audit.events.at(-1)).toMatchObject({ type: "skill_deactivated", skill: "a", details: { reason: "run_finished" } });
  });
});

describe("audit", () => {
  it("records every call with session, actor, skill, layer, digest, tool, outcome, duration and masked arguments", async () => {
    world.writeSkill("audited", "allowed-tools: Bash\n");
    const { executor, audit } = makeExecutor(world, runner);
    await executor.execute({ name: "skill", input: { name: "audited" } });
    const digest = world.resolve("audited")!.digest;
    await executor.execute({ name: "bash", input: { command: "API_TOKEN=sk-abcdefghijklmnopqrstuvwx echo done" }, callId: "call-9" });
    const types = audit.events.map((e) => e.type);
    expect(types).toEqual(["skill_activated", "tool_call", "script_executed", "tool_call"]);
    const call = audit.events.filter((e) => e.type === "tool_call").at(-1)!;
    expect(call).toMatchObject({
      sessionId: "sess-1",
      actor: { id: "user-1" },
      skill: "audited",
      layer: "project",
      digest,
      tool: "bash",
      outcome: "allowed",
      model: "offline",
      mode: "tool",
    });
    expect(call.durationMs).toBeGreaterThanOrEqual(0);
    const json = JSON.stringify(audit.events);
    expect(json).not.toContain("sk-abcdefghijklmnopqrstuvwx");
    expect(json).toContain("[redacted]");
    expect((call.details as { callId: string }).callId).toBe("call-9");
    const script = audit.events.find((e) => e.type === "script_executed")!;
    expect(script.details).toMatchObject({ exitCode: 0 });
    expect(typeof (script.details as { sandboxed: unknown }).sandboxed).toBe("boolean");
  });

  it("long arguments are cut in the log", async () => {
    const { executor, audit } = makeExecutor(world, runner);
    await executor.execute({ name: "write_file", input: { path: "big.txt", content: "y".repeat(10_000) } });
    const details = audit.events.at(-1)!.details as { args: { content: string } };
    expect(details.args.content.length).toBeLessThan(600);
    expect(fs.readFileSync(path.join(world.scratchDir, "big.txt"), "utf8")).toHaveLength(10_000);
  });
});

describe("tool specs for the model", () => {
  it("gives a JSON schema per tool, zod or plain", () => {
    const { executor } = makeExecutor(world, runner);
    const specs = executor.specs();
    const read = specs.find((s) => s.name === "read_file")!;
    expect(read.parameters).toMatchObject({ type: "object", required: ["path"], properties: { path: { type: "string" } } });
    expect(specs.map((s) => s.name)).toEqual(expect.arrayContaining(["read_file", "list_files", "search_files", "write_file", "run_script", "bash", "skill"]));
    expect(() => executor.register({ ...read, name: "Read_File", inputSchema: { type: "object" }, run: () => "" })).toThrow(/already registered/);
  });

  it("converts each zod schema once, not again for every model call or every run's executor (issue 35 item 5)", () => {
    const first = makeExecutor(world, runner).executor.specs();
    const again = makeExecutor(world, runner).executor.specs();
    const params = (specs: typeof first, name: string) => specs.find((s) => s.name === name)!.parameters;
    for (const name of ["read_file", "bash", "skill"]) expect(params(again, name)).toBe(params(first, name));
  });
});
