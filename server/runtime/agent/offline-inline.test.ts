// The offline provider runs a skill's own script named in inline code (`scripts/run.sh`, `python3 scripts/x.py a`),
// as the console's script template and many real skills write it, through the same sandboxed tool path as a block.
import { describe, expect, it } from "vitest";
import { MemoryAuditSink } from "../audit/events";
import { runAgent } from "./loop";
import { OfflineProvider } from "./offline";
import { inlineScriptCommands, planActions } from "./offline-plan";
import { makeAgentWorld, useRealRunner } from "./test-support/agent";
import type { AgentEvent } from "./types";

const bed = useRealRunner();

describe("offline provider's inline-code commands", () => {
  const has = (...scripts: string[]) => (rel: string) => scripts.includes(rel);

  it("takes an inline run of one of the skill's own scripts, with an interpreter and arguments; nothing else in backticks", () => {
    const body = [
      "1. Run `scripts/run.sh` (execute it; do not read it).",
      "2. List the fields: `python3 scripts/fill.py --list form.pdf`, then ``./scripts/run.sh --again``.",
      "Also `{base_path}/scripts/run.sh x` and `$ sh scripts/run.sh y`.",
      "Not these: `scripts/gone.sh` (not in the skill), `references/a.md`, `echo hi`, `rm -rf /`, `scripts/../x.sh`,",
      "`scripts/run.sh | tee out.txt`, `scripts/run.sh && rm x`, `ruby scripts/run.sh`, `cat scripts/run.sh`.",
      "```bash\necho `scripts/run.sh in-a-block`\n```",
    ].join("\n");
    expect(inlineScriptCommands(body, has("scripts/run.sh", "scripts/fill.py", "scripts/x.sh"))).toEqual([
      "scripts/run.sh",
      "python3 scripts/fill.py --list form.pdf",
      "./scripts/run.sh --again",
      "scripts/run.sh x",
      "sh scripts/run.sh y",
    ]);
    // Whether the script is the skill's decides, not the spelling: without it, nothing runs.
    expect(inlineScriptCommands(body, has())).toEqual([]);
  });

  it("plans inline runs in the body's order with the blocks, once: prose naming a script a command runs adds nothing", () => {
    const body =
      "Use `scripts/fill.py` for forms. First `python3 scripts/check.py a.pdf`.\n\n```bash\npython3 scripts/fill.py a.pdf\n```\n\n" +
      "Again `python3 scripts/fill.py a.pdf`, and finally `scripts/report.sh`.\n";
    const plan = planActions(body, "fill it", "tool", has("scripts/fill.py", "scripts/check.py", "scripts/report.sh"));
    expect(plan.map((p) => p.input)).toEqual([
      { script: "scripts/check.py", args: ["a.pdf"] },
      { script: "scripts/fill.py", args: ["a.pdf"] },
      { script: "scripts/report.sh", args: [] },
    ]);
    // Without knowing the skill's scripts (a bare planActions), only the blocks count, as before.
    expect(planActions(body, "fill it", "tool").map((p) => p.input)).toEqual([{ script: "scripts/fill.py", args: ["a.pdf"] }]);
  });

  it("runs an inline script through the executor: sandboxed, and refused when allowed-tools does not allow it", async () => {
    const w = makeAgentWorld();
    try {
      w.skill("inline-ok", {
        description: "Counts the widgets in stock. Use when asked to count widgets.",
        body: "# Widgets\n\nRun `scripts/count.sh` and report what it prints.\n",
        files: { "scripts/count.sh": "#!/bin/sh\necho WIDGETS-COUNTED\n" },
      });
      w.skill("inline-locked", {
        description: "Lists the gadgets on the shelf. Use when asked to list gadgets.",
        frontmatter: "allowed-tools: Read",
        body: "# Gadgets\n\nRun `sh scripts/list.sh`.\n",
        files: { "scripts/list.sh": "#!/bin/sh\necho GADGETS-LISTED\n" },
      });
      const go = (request: string) =>
        runAgent({ request, mode: "tool", provider: new OfflineProvider(), skills: { index: w.index() }, runner: bed.runner, audit: new MemoryAuditSink(), scratchDir: w.scratch, sessionId: "s", userId: "u" });
      const ok = await go("count the widgets");
      const script = ok.events.find((e) => e.type === "script_run") as Extract<AgentEvent, { type: "script_run" }>;
      expect(script).toMatchObject({ exitCode: 0, sandboxed: bed.sandboxed });
      expect(script.stdout).toContain("WIDGETS-COUNTED");
      expect(ok.answer).toContain("ran scripts/count.sh:");
      expect(ok.answer).not.toContain("show no command to run");
      const locked = await go("list the gadgets");
      expect(locked.events.find((e) => e.type === "tool_result" && e.tool === "run_script")).toMatchObject({ ok: false, refused: { skill: "inline-locked", rule: "allowed-tools" } });
      expect(locked.events.some((e) => e.type === "script_run")).toBe(false);
    } finally {
      w.cleanup();
    }
  });
});
