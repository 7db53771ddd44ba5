// The three disclosure modes end to end with the offline provider: real layer tree, real registry, real
// executor, real sandbox (bubblewrap when it isolates here).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryAuditSink } from "../audit/events";
import type { ScriptRunner } from "../sandbox/types";
import { runAgent } from "./loop";
import { OFFLINE_NOTICE, OfflineProvider } from "./offline";
import { bashCommands, bodyLinks, planActions } from "./offline-plan";
import { makeAgentWorld, realRunner, type AgentWorld } from "./test-support/agent";
import type { AgentEvent, DisclosureMode } from "./types";

let world: AgentWorld;
let runner: ScriptRunner;
let sandboxed = false;
let closeRunner: () => Promise<void>;

const PDF_BODY = `# PDF forms

Field naming rules are in [the forms guide](references/forms.md); layout tips in [layout](references/layout.md).

Extract the fields first:

\`\`\`bash
python3 scripts/fields.py invoice.pdf
\`\`\`

Then report:

\`\`\`bash
# a comment, skipped
echo all-done
\`\`\`
`;

beforeAll(async () => {
  world = makeAgentWorld();
  world.skill("pdf-forms", {
    description: "Fill PDF forms and list their fields. Use when working with PDF forms.",
    frontmatter: "allowed-tools: Read Bash(python3:*)",
    body: PDF_BODY,
    files: {
      "references/forms.md": "FORMS-GUIDE: fields are named f1..f9\n",
      "references/layout.md": "LAYOUT-GUIDE\n",
      "scripts/fields.py": "import sys, os\nprint('FIELDS-OF', sys.argv[1], 'cwd', os.getcwd())\n",
    },
  });
  world.skill("git-notes", { description: "Write git commit notes from staged changes.", body: "# Notes\n\nWrite them.\n" });
  const r = await realRunner();
  runner = r.runner;
  sandboxed = r.sandboxed;
  closeRunner = r.close;
});

afterAll(async () => {
  await closeRunner?.();
  world?.cleanup();
});

async function run(mode: DisclosureMode, request = "fill the PDF form fields, the forms guide has the names") {
  const audit = new MemoryAuditSink();
  const streamed: AgentEvent[] = [];
  const result = await runAgent({
    request,
    mode,
    provider: new OfflineProvider(),
    skills: { index: world.index() },
    runner,
    audit,
    scratchDir: world.scratch,
    sessionId: "sess-offline",
    userId: "alice",
    onEvent: (e) => streamed.push(e),
  });
  return { result, audit, streamed };
}

const ACTIVATION_TOOL: Record<DisclosureMode, string> = { tool: "skill", prompt: "read_file", orchestrated: "skills.load" };
const READ_TOOL: Record<DisclosureMode, string> = { tool: "read_file", prompt: "read_file", orchestrated: "skills.read" };
const SCRIPT_TOOL: Record<DisclosureMode, string> = { tool: "run_script", prompt: "run_script", orchestrated: "skills.run_script" };

describe.each(["tool", "prompt", "orchestrated"] as const)("offline provider, %s mode", (mode) => {
  it("selects, activates, reads the named reference, runs the script, is refused outside allowed-tools, answers and cleans up", async () => {
    const { result, audit, streamed } = await run(mode);
    expect(result.reason).toBe("answered");
    expect(streamed).toEqual(result.events);
    const types = result.events.map((e) => e.type);
    expect(types[0]).toBe("run_started");
    expect(types.at(-1)).toBe("run_finished");

    // Stage 1: the listing the model sees.
    const started = result.events[0] as Extract<AgentEvent, { type: "run_started" }>;
    expect(started.listing.listed).toBe(2);
    if (mode === "tool") expect(started.listing.text).toContain('"pdf-forms": Fill PDF forms');
    if (mode === "prompt") expect(started.listing.text).toMatch(/<location>\/.*\/pdf-forms\/SKILL\.md<\/location>/);
    if (mode === "orchestrated") expect(started.listing.text).toContain("<name>pdf-forms</name>");

    // The pick is explained.
    const sel = result.events.find((e) => e.type === "skill_selected") as Extract<AgentEvent, { type: "skill_selected" }>;
    expect(sel.skill).toBe("pdf-forms");
    // The one ranking's explanation: the request's words, where they matched.
    expect(sel.reason).toMatch(/^'pdf-forms' ranked first of 2 skills \(score [0-9.]+\): name matches 'pdf', 'form'; description matches 'fill'/);
    expect(sel.score).toBeGreaterThan(0);

    // Activated the way the mode does it, with its restrictions.
    const act = result.events.find((e) => e.type === "skill_activated") as Extract<AgentEvent, { type: "skill_activated" }>;
    expect(act).toMatchObject({ skill: "pdf-forms", layer: "project", allowedTools: ["Read", "Bash(python3:*)"] });
    expect(act.via).toBe({ tool: "skill_tool", prompt: "read_skill_md", orchestrated: "skills.load" }[mode]);
    expect(act.digest).toMatch(/^[0-9a-f]{64}$/);

    const calls = result.events.filter((e) => e.type === "tool_call") as Extract<AgentEvent, { type: "tool_call" }>[];
    expect(calls.map((c) => c.tool)).toEqual([ACTIVATION_TOOL[mode], READ_TOOL[mode], SCRIPT_TOOL[mode], "bash"]);
    // Only the reference the request names is read (forms), not layout.
    expect(JSON.stringify(calls[1]!.input)).toContain("references/forms.md");

    const results = result.events.filter((e) => e.type === "tool_result") as Extract<AgentEvent, { type: "tool_result" }>[];
    expect(results[1]!.output).toContain("FORMS-GUIDE");
    expect(results[2]!.ok).toBe(true);
    expect(results[2]!.output).toContain("FIELDS-OF invoice.pdf");
    // bash is outside allowed-tools (only Bash(python3:*)): refused, never run.
    expect(results[3]).toMatchObject({ tool: "bash", ok: false, refused: { skill: "pdf-forms", rule: "allowed-tools" } });

    const script = result.events.find((e) => e.type === "script_run") as Extract<AgentEvent, { type: "script_run" }>;
    expect(script.exitCode).toBe(0);
    expect(script.sandboxed).toBe(sandboxed);
    if (sandboxed) expect(script.stdout).toContain("cwd /scratch");
    expect(result.events.filter((e) => e.type === "script_run")).toHaveLength(1); // the refused bash never ran

    // The answer says what it is and what it did.
    expect(result.answer.startsWith(OFFLINE_NOTICE)).toBe(true);
    expect(result.answer).toContain("FIELDS-OF invoice.pdf");
    expect(result.answer).toMatch(/ran `echo all-done`: refused/);

    // Deactivated at the end of the run.
    const deact = result.events.filter((e) => e.type === "skill_deactivated");
    expect(deact).toEqual([expect.objectContaining({ skill: "pdf-forms", reason: "run_finished" })]);

    // Audit: activation, each call, the script run, the refusal, the deactivation; all with session, user, model, mode.
    const kinds = audit.events.map((e) => `${e.type}:${e.tool ?? ""}`);
    expect(kinds).toContain("skill_activated:");
    expect(kinds).toContain(`script_executed:${SCRIPT_TOOL[mode]}`);
    expect(kinds).toContain("tool_restriction_violated:bash");
    expect(kinds).toContain("skill_deactivated:");
    for (const e of audit.events) {
      expect(e).toMatchObject({ sessionId: "sess-offline", actor: { id: "alice" }, model: "offline-rules-1", mode });
    }
    const refused = audit.events.find((e) => e.type === "tool_restriction_violated")!;
    expect(refused).toMatchObject({ skill: "pdf-forms", layer: "project", digest: act.digest, outcome: "refused" });
    const exec = audit.events.find((e) => e.type === "script_executed")!;
    expect(exec.details).toMatchObject({ exitCode: 0, sandboxed });
    // No event is recorded twice (the executor and the agent each record their own).
    expect(audit.events.filter((e) => e.type === "skill_activated")).toHaveLength(1);
    expect(audit.events.filter((e) => e.type === "script_executed")).toHaveLength(1);
  });

  it("answers plainly, activating nothing, when no skill matches", async () => {
    const { result, audit } = await run(mode, "what is the capital of Peru");
    expect(result.reason).toBe("answered");
    expect(result.answer).toContain("No available skill serves the request");
    expect(result.answer).toContain(OFFLINE_NOTICE);
    expect(result.events.some((e) => e.type === "skill_activated")).toBe(false);
    expect(audit.events.some((e) => e.type === "skill_activated")).toBe(false);
  });
});

describe("reading scripts is blocked, in every mode", () => {
  it.each([
    ["tool", "read_file", { path: "scripts/fields.py" }],
    ["orchestrated", "skills.read", { path: "scripts/fields.py" }],
  ] as const)("%s mode: %s of scripts/ is refused and audited as script_read_blocked", async (mode, tool, input) => {
    const audit = new MemoryAuditSink();
    // A provider that activates pdf-forms, then tries to read its script.
    const provider = new OfflineProvider();
    let n = 0;
    const reader = {
      name: "reader",
      model: "reader-1",
      contextTokens: 200_000,
      async complete(req: Parameters<OfflineProvider["complete"]>[0]) {
        n++;
        if (n === 1) return provider.complete(req); // the offline pick and activation
        if (n === 2) return { text: "", toolCalls: [{ id: "r1", name: tool, input }] };
        return { text: "done", toolCalls: [] };
      },
    };
    const result = await runAgent({
      request: "fill the PDF form",
      mode,
      provider: reader,
      skills: { index: world.index() },
      runner,
      audit,
      scratchDir: world.scratch,
      sessionId: "s",
      userId: "u",
    });
    const res = result.events.find((e) => e.type === "tool_result" && e.callId === "r1") as Extract<AgentEvent, { type: "tool_result" }>;
    expect(res.ok).toBe(false);
    expect(res.refused).toMatchObject({ skill: "pdf-forms", rule: "script-read" });
    expect(res.output).not.toContain("FIELDS-OF");
    expect(audit.events.filter((e) => e.type === "script_read_blocked")).toEqual([
      expect.objectContaining({ skill: "pdf-forms", tool, outcome: "refused", mode }),
    ]);
  });
});

describe("offline provider's reading of a body", () => {
  it("finds bash-block commands (comments skipped, continuations joined) and relative links", () => {
    expect(bashCommands("```bash\n# c\npython3 scripts/a.py \\\n  --x 1\n\necho hi\n```\n```python\nprint(1)\n```")).toEqual(["python3 scripts/a.py --x 1", "echo hi"]);
    expect(bodyLinks("[a](references/a.md) [w](https://x.y) [#](#top) [b](b.md)")).toEqual([
      { text: "a", target: "references/a.md" },
      { text: "b", target: "b.md" },
    ]);
  });

  it("plans script runs with their arguments and reads only references the request names", () => {
    const plan = planActions(PDF_BODY, "use the layout guide", "orchestrated");
    expect(plan.map((p) => [p.tool, p.input])).toEqual([
      ["skills.read", { path: "references/layout.md" }],
      ["skills.run_script", { path: "scripts/fields.py", args: ["invoice.pdf"] }],
      ["bash", { command: "echo all-done" }],
    ]);
  });
});

describe("offline provider with context: fork and a session's pinned skills", () => {
  let w2: AgentWorld;
  beforeAll(() => {
    w2 = makeAgentWorld();
    w2.skill("summarize-secrets", {
      description: "Summarize secrets in isolation.",
      frontmatter: "context: fork\nallowed-tools: Bash(echo:*)",
      body: "# Summarize\n\n```bash\necho FORKED-RUN\n```\n",
    });
    w2.skill("house-style", { description: "House writing style.", body: "# Style\n\nSTYLE-BODY: be brief.\n" });
  });
  afterAll(() => w2?.cleanup());

  it("runs a fork skill in a sub-agent (its own activation, restrictions and script run) and returns only its answer", async () => {
    const audit = new MemoryAuditSink();
    const result = await runAgent({
      request: "summarize the secrets",
      history: [{ role: "user", content: "PARENT-ONLY-CONTEXT" }],
      mode: "tool",
      provider: new OfflineProvider(),
      skills: { index: w2.index() },
      runner,
      audit,
      scratchDir: w2.scratch,
      sessionId: "s",
      userId: "u",
    });
    expect(result.reason).toBe("answered");
    const top = result.events.filter((e) => e.depth === 0);
    const sub = result.events.filter((e) => e.depth === 1);
    expect(top.some((e) => e.type === "skill_activated")).toBe(false);
    expect(sub.find((e) => e.type === "skill_activated")).toMatchObject({ skill: "summarize-secrets", via: "fork", allowedTools: ["Bash(echo:*)"] });
    const script = sub.find((e) => e.type === "script_run") as Extract<AgentEvent, { type: "script_run" }>;
    expect(script.stdout.trim()).toBe("FORKED-RUN");
    const subMessage = sub.find((e) => e.type === "message") as Extract<AgentEvent, { type: "message" }>;
    expect(subMessage.text).toContain("in its own context (context: fork), without the parent conversation");
    expect(subMessage.text).not.toContain("PARENT-ONLY-CONTEXT");
    expect(result.answer).toContain("FORKED-RUN");
    expect(audit.events.filter((e) => e.type === "skill_activated")).toEqual([expect.objectContaining({ skill: "summarize-secrets", mode: "tool" })]);
  });

  it("keeps skills a session pinned before the run, injects their bodies, and releases only what the run activated", async () => {
    const { SkillStack } = await import("../tools/stack");
    const stack = new SkillStack();
    const entry = w2.index().entries().find((e) => e.name === "house-style")!;
    stack.push({ name: "house-style", layer: entry.layer, digest: entry.digest, baseDir: entry.dir, activatedBy: "user" });
    const seen: string[] = [];
    const provider = new OfflineProvider();
    const spy = { name: provider.name, model: provider.model, contextTokens: provider.contextTokens, complete: (req: Parameters<OfflineProvider["complete"]>[0]) => (seen.push(req.system), provider.complete(req)) };
    const result = await runAgent({
      request: "what is the capital of Peru",
      mode: "orchestrated",
      provider: spy,
      skills: { index: w2.index() },
      runner,
      audit: new MemoryAuditSink(),
      scratchDir: w2.scratch,
      sessionId: "s",
      userId: "u",
      stack,
    });
    expect(result.reason).toBe("answered");
    expect(seen[0]).toContain('<skill name="house-style"');
    expect(seen[0]).toContain("STYLE-BODY: be brief.");
    expect(stack.list().map((s) => s.name)).toEqual(["house-style"]);
    expect(result.events.some((e) => e.type === "skill_deactivated")).toBe(false);
  });
});

describe("stage costs carry over a conversation", () => {
  it("an earlier turn's activation and outputs count as stage 2 and 3 in the next run's calls", async () => {
    const first = await run("tool");
    const firstCosts = first.result.costs;
    const audit = new MemoryAuditSink();
    const second = await runAgent({
      request: "what is the capital of Peru",
      history: first.result.messages,
      mode: "tool",
      provider: new OfflineProvider(),
      skills: { index: world.index() },
      runner,
      audit,
      scratchDir: world.scratch,
      sessionId: "sess-offline",
      userId: "alice",
    });
    const c = second.costs[0]!;
    expect(c.stage2.chars).toBe(firstCosts.at(-1)!.stage2.chars);
    expect(c.stage3.chars).toBe(firstCosts.at(-1)!.stage3.chars);
    expect(c.stage3.chars).toBeGreaterThan(0);
  });
});

describe("abort during a script run", () => {
  it("stops the running script and ends the run as aborted", async () => {
    const w3 = makeAgentWorld();
    try {
      w3.skill("slow-report", {
        description: "Builds a slow report.",
        body: "# Slow\n\n```bash\npython3 scripts/slow.py\n```\n",
        files: { "scripts/slow.py": "import time\ntime.sleep(20)\nprint('SHOULD-NOT-FINISH')\n" },
      });
      const ac = new AbortController();
      const started = performance.now();
      const result = await runAgent({
        request: "build the slow report",
        mode: "tool",
        provider: new OfflineProvider(),
        skills: { index: w3.index() },
        runner,
        audit: new MemoryAuditSink(),
        scratchDir: w3.scratch,
        sessionId: "s",
        userId: "u",
        signal: ac.signal,
        onEvent: (e) => {
          if (e.type === "tool_call" && e.tool === "run_script") setTimeout(() => ac.abort(), 400);
        },
      });
      expect(result.reason).toBe("aborted");
      expect(performance.now() - started).toBeLessThan(10_000);
      const script = result.events.find((e) => e.type === "script_run") as Extract<AgentEvent, { type: "script_run" }> | undefined;
      expect(script?.stdout ?? "").not.toContain("SHOULD-NOT-FINISH");
      expect(result.events.filter((e) => e.type === "skill_deactivated")).toEqual([expect.objectContaining({ skill: "slow-report", reason: "run_finished" })]);
    } finally {
      w3.cleanup();
    }
  });
});
