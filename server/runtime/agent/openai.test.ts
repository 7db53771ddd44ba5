// The real HTTP and tool-calling path: the OpenAI-compatible provider (ai SDK, chat completions) against a
// scripted server on 127.0.0.1 that returns tool calls, checking what the client sent each time.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MemoryAuditSink } from "../audit/events";
import { anthropicProvider, openAiCompatibleProvider } from "./ai-providers";
import { runAgent } from "./loop";
import { ofType, scriptedAgentBed, scriptedAnthropicServer, systemOf, toolMessages, type ScriptedServer } from "./test-support/agent";
import type { AgentRunOptions, DisclosureMode } from "./types";

let pdfDir: string;

const bed = scriptedAgentBed((world) => {
  pdfDir = world.skill("pdf-forms", {
    description: "Fill PDF forms and list their fields. Use when working with PDF forms.",
    frontmatter: "allowed-tools: Read Bash(python3:*)",
    body: "# PDF forms\n\nBODY-MARKER-PDF. Names are in [forms](references/forms.md).\n\n```bash\npython3 scripts/fields.py invoice.pdf\n```\n",
    files: { "references/forms.md": "FORMS-GUIDE\n", "scripts/fields.py": "import sys\nprint('FIELDS-OF', sys.argv[1])\n" },
  });
  world.skill("git-notes", { description: "Write git commit notes from staged changes.", body: "# Notes\n\nBODY-MARKER-GIT.\n" });
  world.skill("secret-keeper", {
    description: "Handles credentials in isolation.",
    frontmatter: "context: fork",
    body: "# Keeper\n\nFORK-MARKER: answer in one line.\n",
  });
  world.skill("with-hooks", {
    description: "Demonstrates hooks around activation.",
    frontmatter: "hooks:\n  pre: scripts/pre.sh\n  post: scripts/post.sh",
    body: "# Hooks\n\nNothing else to do.\n",
    files: { "scripts/pre.sh": "echo PRE-HOOK-RAN\n", "scripts/post.sh": "echo POST-HOOK-RAN\n" },
  });
});

function providerFor(s: ScriptedServer) {
  return openAiCompatibleProvider({ OPENAI_BASE_URL: s.baseURL, OPENAI_API_KEY: "k-test", OMNIFORGE_MODEL: "scripted-model" });
}

async function run(s: ScriptedServer, mode: DisclosureMode, extra: Partial<AgentRunOptions> = {}) {
  const audit = new MemoryAuditSink();
  const result = await runAgent({
    request: "fill the PDF form",
    mode,
    provider: providerFor(s),
    ...bed.runs(),
    audit,
    sessionId: "sess-http",
    userId: "bob",
    ...extra,
  });
  return { result, audit };
}

describe("OpenAI-compatible provider against a scripted server", () => {
  it("tool mode: the listing travels in the skill tool's description; activation returns the body; restrictions apply", async () => {
    const s = await bed.server([
      { toolCalls: [{ name: "skill", arguments: { name: "pdf-forms" } }] },
      { toolCalls: [{ name: "read_file", arguments: { path: "references/forms.md" } }] },
      { toolCalls: [{ name: "run_script", arguments: { script: "scripts/fields.py", args: ["a.pdf"] } }] },
      { toolCalls: [{ name: "bash", arguments: { command: "curl http://example.com" } }] },
      { content: "All fields listed." },
    ]);
    const { result, audit } = await run(s, "tool");
    expect(result.reason).toBe("answered");
    expect(result.answer).toBe("All fields listed.");
    expect(s.requests).toHaveLength(5);
    expect(s.auth[0]).toBe("Bearer k-test");
    expect(s.requests[0]!.model).toBe("scripted-model");

    const first = s.requests[0]!;
    const skillTool = first.tools!.find((t) => t.function.name === "skill")!;
    expect(skillTool.function.description).toContain("<available_skills>");
    expect(skillTool.function.description).toContain('"pdf-forms": Fill PDF forms and list their fields.');
    expect(skillTool.function.parameters).toMatchObject({ type: "object", properties: { name: { type: "string" } } });
    expect(first.tools!.map((t) => t.function.name).sort()).toEqual(["bash", "list_files", "read_file", "run_script", "search_files", "skill", "skill_search", "write_file"]);
    // The system prompt has the navigation rules, not the listing.
    expect(systemOf(first)).toContain("Path resolution");
    expect(systemOf(first)).toContain("Never read files under scripts/");
    expect(systemOf(first)).not.toContain("<available_skills>");
    expect(first.messages.at(-1)).toMatchObject({ role: "user", content: "fill the PDF form" });

    // Activation result: name, base path, allowed tools, body.
    const afterActivation = toolMessages(s.requests[1]!)[0]!;
    expect(afterActivation).toContain(`Base path: ${pdfDir}`);
    expect(afterActivation).toContain("BODY-MARKER-PDF");
    expect(afterActivation).toContain("Read, Bash(python3:*)");
    // The assistant's tool call is sent back with its id, the result with the same id.
    const assistant = s.requests[1]!.messages.find((m) => m.role === "assistant")!;
    expect(assistant.tool_calls![0]!.function.name).toBe("skill");
    expect(s.requests[1]!.messages.find((m) => m.role === "tool")!.tool_call_id).toBe(assistant.tool_calls![0]!.id);

    expect(toolMessages(s.requests[2]!)[1]).toContain("FORMS-GUIDE");
    expect(toolMessages(s.requests[3]!)[2]).toContain("FIELDS-OF a.pdf");
    const refusal = toolMessages(s.requests[4]!)[3]!;
    expect(refusal).toContain("not allowed by active skill 'pdf-forms'");
    expect(ofType(result.events, "script_run")).toHaveLength(1);

    // Token accounting per stage.
    const costs = ofType(result.events, "model_call").map((e) => e.cost);
    const listing = ofType(result.events, "run_started")[0]!.listing;
    expect(costs.map((c) => c.stage1.chars)).toEqual(Array(5).fill(listing.chars));
    expect(costs[0]!.stage2.chars).toBe(0);
    expect(costs[1]!.stage2.chars).toBe(afterActivation.length);
    expect(costs[1]!.stage3.chars).toBe(0);
    expect(costs[2]!.stage3.chars).toBe("FORMS-GUIDE\n".length);
    expect(costs[3]!.stage3.chars).toBeGreaterThan(costs[2]!.stage3.chars);
    expect(costs[4]!.stage3.chars).toBe(costs[3]!.stage3.chars); // a refusal is not stage 3
    expect(costs[0]!.reported).toEqual({ inputTokens: 100, outputTokens: 10 });
    expect(costs.every((c) => c.stage1.tokens > 0 && c.other.tokens > 0)).toBe(true);

    expect(audit.events.find((e) => e.type === "tool_restriction_violated")).toMatchObject({ tool: "bash", skill: "pdf-forms", model: "scripted-model", mode: "tool" });
    expect(ofType(result.events, "skill_deactivated")).toEqual([expect.objectContaining({ skill: "pdf-forms", reason: "run_finished" })]);
  });

  it("prompt mode: the listing with SKILL.md locations is in the system prompt; reading SKILL.md activates the skill and its restrictions", async () => {
    const location = path.join(pdfDir, "SKILL.md");
    const s = await bed.server([
      { toolCalls: [{ name: "bash", arguments: { command: "echo before-activation" } }] },
      { toolCalls: [{ name: "read_file", arguments: { path: location } }] },
      { toolCalls: [{ name: "bash", arguments: { command: "echo after-activation" } }] },
      { content: "done" },
    ]);
    const { result, audit } = await run(s, "prompt");
    expect(result.reason).toBe("answered");
    const sys = systemOf(s.requests[0]!);
    expect(sys).toContain("<available_skills>");
    expect(sys).toContain(`<location>${location}</location>`);
    expect(sys).toContain("read its SKILL.md first with read_file");
    expect(s.requests[0]!.tools!.map((t) => t.function.name)).not.toContain("skill");

    const results = ofType(result.events, "tool_result");
    expect(results[0]).toMatchObject({ tool: "bash", ok: true });
    expect(results[0]!.output).toContain("before-activation");
    expect(results[1]).toMatchObject({ tool: "read_file", ok: true });
    expect(results[1]!.output).toContain("allowed-tools: Read Bash(python3:*)"); // the whole SKILL.md
    expect(ofType(result.events, "skill_activated")[0]).toMatchObject({ skill: "pdf-forms", via: "read_skill_md" });
    expect(results[2]).toMatchObject({ tool: "bash", ok: false, refused: { skill: "pdf-forms" } });
    expect(audit.events.filter((e) => e.type === "skill_activated")).toHaveLength(1);
  });

  it("orchestrated mode: skills.load/unload with receipts; loaded bodies injected as <active_skills>, most recent last", async () => {
    const s = await bed.server([
      { toolCalls: [{ name: "skills_load", arguments: { names: ["pdf-forms"] } }] },
      { toolCalls: [{ name: "skills_run_script", arguments: { path: "scripts/fields.py", args: ["b.pdf"] } }] },
      { toolCalls: [{ name: "skills_load", arguments: { names: ["git-notes"], mode: "add" } }] },
      { toolCalls: [{ name: "skills_unload", arguments: { names: ["pdf-forms"] } }] },
      { content: "switched" },
    ]);
    const { result } = await run(s, "orchestrated");
    expect(result.reason).toBe("answered");
    const names = s.requests[0]!.tools!.map((t) => t.function.name).sort();
    expect(names).toEqual(["bash", "skills_load", "skills_read", "skills_run_script", "skills_search", "skills_unload", "write_file"]);
    const sys = s.requests.map(systemOf);
    expect(sys[0]).toContain("You MUST call skills.load");
    expect(sys[0]).toContain("<available_skills>");
    expect(sys[0]).not.toContain("</active_skills>");
    expect(sys[1]).toContain(`<active_skills>\n<skill name="pdf-forms" base_path="${pdfDir}">`);
    expect(sys[1]).toContain("BODY-MARKER-PDF");
    expect(sys[3]!.indexOf("BODY-MARKER-PDF")).toBeLessThan(sys[3]!.indexOf("BODY-MARKER-GIT")); // most recent last
    expect(sys[4]).toContain("BODY-MARKER-GIT");
    expect(sys[4]).not.toContain("BODY-MARKER-PDF");

    const receipt = JSON.parse(toolMessages(s.requests[1]!)[0]!) as { active_skills: { name: string; digest: string; root_dir: string }[] };
    const activated = ofType(result.events, "skill_activated");
    expect(receipt.active_skills).toEqual([expect.objectContaining({ name: "pdf-forms", root_dir: pdfDir, digest: `sha256:${activated[0]!.digest}` })]);
    expect(toolMessages(s.requests[2]!)[1]).toContain("FIELDS-OF b.pdf");
    expect(ofType(result.events, "skill_deactivated").map((e) => [e.skill, e.reason])).toEqual([
      ["pdf-forms", "unloaded"],
      ["git-notes", "run_finished"],
    ]);
    // Stage 2 is the injected bodies.
    const costs = ofType(result.events, "model_call").map((e) => e.cost);
    expect(costs[0]!.stage2.chars).toBe(0);
    expect(costs[1]!.stage2.chars).toBeGreaterThan("BODY-MARKER-PDF".length);
    expect(costs[3]!.stage2.chars).toBeGreaterThan(costs[1]!.stage2.chars);
  });

  it("orchestrated mode caps the loaded skills and says so", async () => {
    const s = await bed.server([{ toolCalls: [{ name: "skills_load", arguments: { names: ["pdf-forms", "git-notes"] } }] }, { content: "ok" }]);
    const { result } = await run(s, "orchestrated", { maxLoadedSkills: 1 });
    const r = ofType(result.events, "tool_result")[0]!;
    expect(r.ok).toBe(false);
    expect(r.output).toContain("Too many skills: 2 would be loaded at once, the limit is 1. Nothing was loaded");
    expect(ofType(result.events, "skill_activated")).toHaveLength(0);
  });
});

describe("context: fork", () => {
  it("runs the skill in a sub-agent that sees none of the parent conversation; only its answer returns", async () => {
    const s = await bed.server((body, n) => {
      if (systemOf(body).startsWith("You are a sub-agent")) return { content: "SUB-ANSWER: done in isolation" };
      return n === 0 ? { toolCalls: [{ name: "skill", arguments: { name: "secret-keeper", task: "rotate the key" } }] } : { content: "parent finished" };
    });
    const { result } = await run(s, "tool", {
      history: [
        { role: "user", content: "my password is PARENT-SECRET-42" },
        { role: "assistant", content: "noted" },
      ],
    });
    expect(result.reason).toBe("answered");
    expect(s.requests).toHaveLength(3);
    const sub = s.requests[1]!;
    expect(systemOf(sub)).toContain("FORK-MARKER");
    expect(JSON.stringify(sub)).not.toContain("PARENT-SECRET-42");
    expect(sub.messages.filter((m) => m.role !== "system")).toEqual([{ role: "user", content: "rotate the key" }]);
    // The parent gets the sub-agent's answer, never the skill's body.
    const back = toolMessages(s.requests[2]!)[0]!;
    expect(back).toContain("SUB-ANSWER: done in isolation");
    expect(JSON.stringify(s.requests[2])).not.toContain("FORK-MARKER");
    // The parent's history did reach the parent.
    expect(JSON.stringify(s.requests[0])).toContain("PARENT-SECRET-42");

    const sublevel = result.events.filter((e) => e.depth === 1);
    expect(sublevel.map((e) => e.type)).toContain("model_call");
    expect(sublevel.every((e) => e.forkSkill === "secret-keeper")).toBe(true);
    expect(ofType(result.events, "skill_activated")).toEqual([expect.objectContaining({ skill: "secret-keeper", via: "fork", depth: 1 })]);
    expect(ofType(result.events, "skill_deactivated")).toEqual([expect.objectContaining({ skill: "secret-keeper", reason: "fork_finished", depth: 1 })]);
  });
});

describe("the loop's limits", () => {
  it("stops at the step limit and still deactivates what it activated", async () => {
    const s = await bed.server((_b, n) => (n === 0 ? { toolCalls: [{ name: "skill", arguments: { name: "git-notes" } }] } : { toolCalls: [{ name: "list_files", arguments: {} }] }));
    const { result, audit } = await run(s, "tool", { stepLimit: 3 });
    expect(result.reason).toBe("step_limit");
    expect(result.answer).toBe("");
    expect(s.requests).toHaveLength(3);
    expect(ofType(result.events, "error")[0]!.message).toContain("step limit");
    expect(ofType(result.events, "run_finished")[0]).toMatchObject({ reason: "step_limit", steps: 3 });
    expect(ofType(result.events, "skill_deactivated")).toEqual([expect.objectContaining({ skill: "git-notes", reason: "run_finished" })]);
    expect(audit.events.filter((e) => e.type === "skill_deactivated")).toHaveLength(1);
  });

  it("stops when aborted, mid model call", async () => {
    const s = await bed.server([{ content: "too late" }], { delayMs: 5000 });
    const ac = new AbortController();
    const started = performance.now();
    setTimeout(() => ac.abort(), 300);
    const { result } = await run(s, "tool", { signal: ac.signal });
    expect(result.reason).toBe("aborted");
    expect(performance.now() - started).toBeLessThan(4000);
    expect(ofType(result.events, "run_finished")[0]!.reason).toBe("aborted");
    expect(result.events.some((e) => e.type === "message")).toBe(false);
  });

  it("runs hooks.pre after activation and hooks.post after deactivation, through the runner, audited", async () => {
    const s = await bed.server([{ toolCalls: [{ name: "skill", arguments: { name: "with-hooks" } }] }, { content: "ok" }]);
    const { result, audit } = await run(s, "tool");
    expect(result.reason).toBe("answered");
    const hooks = ofType(result.events, "script_run");
    expect(hooks.map((h) => [h.hook, h.exitCode, h.stdout.trim()])).toEqual([
      ["pre", 0, "PRE-HOOK-RAN"],
      ["post", 0, "POST-HOOK-RAN"],
    ]);
    const order = result.events.map((e) => (e.type === "script_run" ? `hook-${e.hook}` : e.type)).filter((t) => /skill_(de)?activated|hook-/.test(t));
    expect(order).toEqual(["skill_activated", "hook-pre", "skill_deactivated", "hook-post"]);
    expect(toolMessages(s.requests[1]!)[0]).toContain("[hooks.pre of 'with-hooks' (scripts/pre.sh): exit code 0; output: PRE-HOOK-RAN]");
    expect(audit.events.filter((e) => e.type === "hook_executed").map((e) => [e.skill, e.details?.hook, e.outcome])).toEqual([
      ["with-hooks", "pre", "ok"],
      ["with-hooks", "post", "ok"],
    ]);
  });
});

describe("Anthropic provider against a scripted Messages API server", () => {
  it("sends the system prompt, the tools with JSON schema and the tool results; tool_use blocks come back as calls", async () => {
    const s = await scriptedAnthropicServer([
      { toolCalls: [{ name: "skills_load", arguments: { names: ["git-notes"] } }] },
      { content: "notes written" },
    ]);
    try {
      const provider = anthropicProvider({ ANTHROPIC_API_KEY: "ak-test", ANTHROPIC_BASE_URL: s.baseURL, OMNIFORGE_MODEL: "claude-scripted" });
      const result = await runAgent({
        request: "write git notes",
        mode: "orchestrated",
        provider,
        ...bed.runs(),
        audit: new MemoryAuditSink(),
        sessionId: "s",
        userId: "u",
      });
      expect(result.reason).toBe("answered");
      expect(result.answer).toBe("notes written");
      expect(s.keys[0]).toBe("ak-test");
      expect(s.requests[0]!.model).toBe("claude-scripted");
      expect(JSON.stringify(s.requests[0]!.system)).toContain("You MUST call skills.load");
      expect(s.requests[0]!.tools!.map((t) => t.name)).toContain("skills_load");
      expect(s.requests[0]!.tools!.find((t) => t.name === "skills_load")!.input_schema).toMatchObject({ type: "object", properties: { names: { type: "array" } } });
      expect(JSON.stringify(s.requests[1]!.system)).toContain("BODY-MARKER-GIT");
      const last = s.requests[1]!.messages.at(-1)!;
      expect(JSON.stringify(last)).toContain("tool_result");
      expect(JSON.stringify(last)).toContain("sha256:");
      expect(ofType(result.events, "model_call")[0]!.cost.reported).toEqual({ inputTokens: 200, outputTokens: 20 });
    } finally {
      await s.close();
    }
  });
});

describe("context: fork in orchestrated mode", () => {
  it("skills.load of a fork skill runs the sub-agent and does not load the skill", async () => {
    const s = await bed.server((body, n) => {
      if (systemOf(body).startsWith("You are a sub-agent")) return { content: "SUB-ORCH-ANSWER" };
      return n === 0 ? { toolCalls: [{ name: "skills_load", arguments: { names: ["secret-keeper"] } }] } : { content: "ok" };
    });
    const { result } = await run(s, "orchestrated");
    expect(result.reason).toBe("answered");
    expect(toolMessages(s.requests[2]!)[0]).toContain("SUB-ORCH-ANSWER");
    expect(systemOf(s.requests[2]!)).not.toContain("</active_skills>");
    expect(ofType(result.events, "skill_activated").map((e) => [e.skill, e.depth])).toEqual([["secret-keeper", 1]]);
  });
});

describe("streaming", () => {
  it("text reaches the listener in pieces as the server sends them, and stop cuts the answer mid-way", async () => {
    const answer = "Here is a long answer that arrives in many small pieces over the wire.";
    const s = await bed.server([{ content: answer }], { chunkDelayMs: 30 });
    const { result } = await run(s, "tool");
    const deltas = ofType(result.events, "text_delta").map((e) => e.text);
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join("")).toBe(answer);
    expect(result.answer).toBe(answer);
    expect(s.requests[0]!.stream).toBe(true);

    const slow = await bed.server([{ content: answer }], { chunkDelayMs: 200 });
    const ac = new AbortController();
    const seen: string[] = [];
    const t0 = performance.now();
    const stopped = await run(slow, "tool", {
      signal: ac.signal,
      onEvent: (e) => {
        if (e.type === "text_delta") {
          seen.push(e.text);
          if (seen.length === 2) ac.abort();
        }
      },
    });
    expect(stopped.result.reason).toBe("aborted");
    expect(performance.now() - t0).toBeLessThan(2500);
    expect(seen.join("").length).toBeLessThan(answer.length);
  });
});
