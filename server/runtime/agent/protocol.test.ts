// Spec 004 to the letter and seed 000's activation chains, through the real loop and the OpenAI-compatible
// provider against a scripted server on 127.0.0.1, in every disclosure mode (issue 14, sections 3 and 4).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MemoryAuditSink } from "../audit/events";
import { openAiCompatibleProvider } from "./ai-providers";
import { runAgent } from "./loop";
import { ofType, scriptedAgentBed, systemOf, toolMessages, type ScriptedReply, type ScriptedServer } from "./test-support/agent";
import type { AgentRunOptions, DisclosureMode } from "./types";

const dirs: Record<string, string> = {};
const MODES: DisclosureMode[] = ["tool", "prompt", "orchestrated"];

const bed = scriptedAgentBed((world) => {
  dirs["report-kit"] = world.skill("report-kit", {
    description: "Build quarterly reports from CSV files.",
    frontmatter: "license: Apache-2.0\ncompatibility: Requires python3\nmetadata:\n  author: acme\n  version: \"1.2\"\nallowed-tools: Read Bash(python3:*) Write",
    body: "# Report kit\n\nBODY-REPORT. Run `python3 scripts/env.py`.\n",
    files: {
      "references/layout.md": "LAYOUT\n",
      "scripts/env.py": "import os, sys\nprint('args', ' '.join(sys.argv[1:]))\nfor k in ('KEY', 'LD_PRELOAD', 'http_proxy'):\n    print(k, os.environ.get(k, '-'))\nprint('cwd', os.getcwd())\n",
    },
  });
  dirs["notes-kit"] = world.skill("notes-kit", { description: "Write meeting notes.", body: "# Notes\n\nBODY-NOTES.\n" });
  dirs["read-only-kit"] = world.skill("read-only-kit", { description: "Reads documents only.", frontmatter: "allowed-tools: Read", body: "# RO\n\nBODY-RO.\n" });
  // Three skills that send the agent to each other, and a variant whose middle one runs as a fork.
  for (const [a, b] of [["cyc-a", "cyc-b"], ["cyc-b", "cyc-c"], ["cyc-c", "cyc-a"], ["frk-a", "frk-b"], ["frk-b", "frk-c"], ["frk-c", "frk-a"]] as const) {
    dirs[a] = world.skill(a, { description: `Chain step ${a}.`, ...(a === "frk-b" ? { frontmatter: "context: fork" } : {}), body: `# ${a}\n\nNow activate the skill ${b}.\n` });
  }
  for (let k = 1; k <= 6; k++) dirs[`deep-${k}`] = world.skill(`deep-${k}`, { description: `Depth step ${k}.`, body: `# deep-${k}\n\nActivate deep-${k + 1}.\n` });
});

async function run(s: ScriptedServer, mode: DisclosureMode, extra: Partial<AgentRunOptions> = {}) {
  const audit = new MemoryAuditSink();
  const result = await runAgent({
    request: "build the report",
    mode,
    provider: openAiCompatibleProvider({ OPENAI_BASE_URL: s.baseURL, OPENAI_API_KEY: "k", OMNIFORGE_MODEL: "scripted" }),
    ...bed.runs(),
    audit,
    sessionId: "sess-protocol",
    userId: "ann",
    ...extra,
  });
  return { result, audit };
}

/**
 * The model's call that activates `name` in `mode` (orchestrated: skills.load, replace by default; a chain of
 * skills that send the agent to each other keeps the earlier ones loaded, with "add").
 */
function activate(mode: DisclosureMode, name: string, load: "replace" | "add" = "replace"): ScriptedReply {
  if (mode === "tool") return { toolCalls: [{ name: "skill", arguments: { name } }] };
  if (mode === "prompt") return { toolCalls: [{ name: "read_file", arguments: { path: path.join(dirs[name]!, "SKILL.md") } }] };
  return { toolCalls: [{ name: "skills_load", arguments: { names: [name], mode: load } }] };
}

describe("active_skills belongs to the session (orchestrated mode)", () => {
  it("persists across turns until skills.unload, injected in order on every call, most recent last", async () => {
    const s1 = await bed.server([{ toolCalls: [{ name: "skills_load", arguments: { names: ["report-kit"] } }] }, { content: "loaded" }]);
    const t1 = await run(s1, "orchestrated", { activeSkills: [] });
    expect(t1.result.activeSkills).toEqual(["report-kit"]);
    expect(ofType(t1.result.events, "skill_deactivated")).toEqual([]);
    expect(ofType(t1.result.events, "run_finished")[0]!.activeSkills).toEqual(["report-kit"]);

    // Turn 2: the first call already carries the body; a second skill is added after it.
    const s2 = await bed.server([{ toolCalls: [{ name: "skills_load", arguments: { names: ["notes-kit"], mode: "add" } }] }, { content: "both" }]);
    const t2 = await run(s2, "orchestrated", { activeSkills: t1.result.activeSkills });
    expect(ofType(t2.result.events, "run_started")[0]!.activeSkills).toEqual(["report-kit"]);
    expect(systemOf(s2.requests[0]!)).toContain(`<active_skills>\n<skill name="report-kit"`);
    const second = systemOf(s2.requests[1]!);
    expect(second.indexOf("BODY-REPORT")).toBeGreaterThan(-1);
    expect(second.indexOf("BODY-REPORT")).toBeLessThan(second.indexOf("BODY-NOTES"));
    expect(t2.result.activeSkills).toEqual(["report-kit", "notes-kit"]);
    // Restrictions of a session's skill hold in the next turn too (report-kit allows no list_files... nor bash).
    expect(ofType(t2.result.events, "skill_activated").map((e) => e.skill)).toEqual(["notes-kit"]);

    // Turn 3: still there on the first call, gone after skills.unload.
    const s3 = await bed.server([{ toolCalls: [{ name: "skills_unload", arguments: { all: true } }] }, { content: "clear" }]);
    const t3 = await run(s3, "orchestrated", { activeSkills: t2.result.activeSkills });
    expect(systemOf(s3.requests[0]!)).toContain("BODY-NOTES");
    expect(systemOf(s3.requests[1]!)).not.toContain("</active_skills>");
    expect(t3.result.activeSkills).toEqual([]);
    expect(ofType(t3.result.events, "skill_deactivated").map((e) => [e.skill, e.reason])).toEqual([
      ["report-kit", "unloaded"],
      ["notes-kit", "unloaded"],
    ]);
  });

  it("a session skill that is no longer available is dropped at the next turn, and says so", async () => {
    const s = await bed.server([{ content: "ok" }]);
    const { result, audit } = await run(s, "orchestrated", { activeSkills: ["no-such-skill", "notes-kit"] });
    expect(ofType(result.events, "skill_deactivated")).toEqual([expect.objectContaining({ skill: "no-such-skill", reason: "unavailable" })]);
    expect(audit.events.find((e) => e.type === "skill_deactivated")).toMatchObject({ skill: "no-such-skill", details: { reason: "unavailable" } });
    expect(result.activeSkills).toEqual(["notes-kit"]);
  });

  it("the cap on loaded skills is refused with a clear message, and nothing changes", async () => {
    const s = await bed.server([{ toolCalls: [{ name: "skills_load", arguments: { names: ["notes-kit"], mode: "add" } }] }, { content: "ok" }]);
    const { result } = await run(s, "orchestrated", { activeSkills: ["report-kit"], maxLoadedSkills: 1 });
    const r = ofType(result.events, "tool_result")[0]!;
    expect(r.ok).toBe(false);
    expect(r.output).toBe('Too many skills: 2 would be loaded at once, the limit is 1. Nothing was loaded. Load fewer skills: unload one with skills.unload, or use mode "replace".');
    expect(result.activeSkills).toEqual(["report-kit"]);
  });
});

describe("skills.load receipts and loading by location", () => {
  it("carry location, root_dir, digest and every property; a skill loads by its SKILL.md path or its folder", async () => {
    const s = await bed.server([
      { toolCalls: [{ name: "skills_load", arguments: { names: [path.join(dirs["report-kit"]!, "SKILL.md")] } }] },
      { toolCalls: [{ name: "skills_load", arguments: { names: [dirs["notes-kit"]!], mode: "add" } }] },
      { content: "ok" },
    ]);
    const { result } = await run(s, "orchestrated");
    const receipt = JSON.parse(toolMessages(s.requests[1]!)[0]!) as { active_skills: Record<string, unknown>[] };
    expect(receipt.active_skills).toEqual([
      expect.objectContaining({
        name: "report-kit",
        location: path.join(dirs["report-kit"]!, "SKILL.md"),
        root_dir: dirs["report-kit"],
        digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        properties: {
          name: "report-kit",
          description: "Build quarterly reports from CSV files.",
          license: "Apache-2.0",
          compatibility: "Requires python3",
          metadata: { author: "acme", version: "1.2" },
          "allowed-tools": "Read Bash(python3:*) Write",
        },
      }),
    ]);
    const second = JSON.parse(toolMessages(s.requests[2]!)[1]!) as { active_skills: { name: string }[] };
    expect(second.active_skills.map((a) => a.name)).toEqual(["report-kit", "notes-kit"]);
    expect(result.reason).toBe("answered");
  });

  it("skills.read of a missing file lists the files the skill has", async () => {
    const s = await bed.server([
      { toolCalls: [{ name: "skills_load", arguments: { names: ["report-kit"] } }] },
      { toolCalls: [{ name: "skills_read", arguments: { path: "references/layouts.md" } }] },
      { content: "ok" },
    ]);
    await run(s, "orchestrated");
    expect(JSON.parse(toolMessages(s.requests[2]!)[1]!).error).toBe(`Error from skills.read: No file "references/layouts.md" in skill 'report-kit'. Its files: SKILL.md, references/layout.md, scripts/env.py.`);
  });
});

describe("the script tool speaks spec 004 in every mode", () => {
  for (const mode of MODES) {
    it(`${mode}: {skill, path, args, env, workdir} in; {path, exit_code, stdout, stderr, duration_ms, truncated, sandboxed} out`, async () => {
      const work = path.join(bed.world.scratch, `work-${mode}`);
      fs.mkdirSync(work, { recursive: true, mode: 0o777 });
      fs.chmodSync(work, 0o777);
      const tool = mode === "orchestrated" ? "skills_run_script" : "run_script";
      const s = await bed.server([
        activate(mode, "report-kit"),
        { toolCalls: [{ name: tool, arguments: { skill: "report-kit", path: "scripts/env.py", args: ["q1"], env: { KEY: "V", LD_PRELOAD: "/scratch/x.so", http_proxy: "http://p:1" }, workdir: `work-${mode}` } }] },
        { toolCalls: [{ name: tool, arguments: { path: "scripts/env.py", workdir: "../.." } }] },
        { content: "done" },
      ]);
      const { result } = await run(s, mode);
      expect(result.reason).toBe("answered");
      const out = JSON.parse(toolMessages(s.requests[2]!)[1]!) as Record<string, unknown>;
      expect(Object.keys(out).slice(0, 4)).toEqual(["path", "exit_code", "stdout", "stderr"]);
      expect(out).toMatchObject({ path: "scripts/env.py", exit_code: 0, stderr: "", truncated: false, workdir: `work-${mode}` });
      expect(typeof out.duration_ms).toBe("number");
      expect(typeof out.sandboxed).toBe("boolean");
      expect(out.stdout).toBe(`args q1\nKEY V\nLD_PRELOAD -\nhttp_proxy -\ncwd ${out.sandboxed ? `/scratch/work-${mode}` : work}\n`);
      expect(out.env_dropped).toEqual(["LD_PRELOAD: it steers the dynamic loader", "http_proxy: proxy settings are not passed to scripts"]);
      expect(JSON.parse(toolMessages(s.requests[3]!)[2]!).error).toContain('workdir "../.." is outside the scratch folder');
    });
  }
});

describe("orchestrated mode never mentions the skill tool", () => {
  it("not in its instructions, tool descriptions or refusals", async () => {
    const s = await bed.server([
      { toolCalls: [{ name: "skills_load", arguments: { names: ["read-only-kit"] } }] },
      { toolCalls: [{ name: "bash", arguments: { command: "ls" } }] },
      { content: "ok" },
    ]);
    await run(s, "orchestrated");
    const refusal = toolMessages(s.requests[2]!)[1]!;
    expect(refusal).toContain("not allowed by active skill 'read-only-kit'");
    expect(refusal).toContain("unload the skill with skills.unload");
    for (const body of s.requests) {
      const said = JSON.stringify({ system: systemOf(body), tools: body.tools, messages: body.messages });
      expect(said).not.toMatch(/skill tool|`skill`|"skill" tool/i);
      expect(body.tools!.map((t) => t.function.name)).not.toContain("skill");
    }
  });
});

describe("activation chains: cycles and depth (seed 000)", () => {
  for (const mode of MODES) {
    it(`${mode}: a -> b -> c -> a is stopped with the cycle shown`, async () => {
      const s = await bed.server([activate(mode, "cyc-a", "add"), activate(mode, "cyc-b", "add"), activate(mode, "cyc-c", "add"), activate(mode, "cyc-a", "add"), { content: "stopped" }]);
      const { result } = await run(s, mode);
      const results = ofType(result.events, "tool_result");
      expect(results.slice(0, 3).map((r) => r.ok)).toEqual([true, true, true]);
      expect(results[3]).toMatchObject({ ok: false });
      expect(results[3]!.output).toContain("Activation cycle: cyc-a -> cyc-b -> cyc-c -> cyc-a.");
      expect(ofType(result.events, "skill_activated").map((e) => e.skill)).toEqual(["cyc-a", "cyc-b", "cyc-c"]);
      expect(result.reason).toBe("answered");
    });

    it(`${mode}: the cycle is seen through a fork sub-agent (a -> b (fork) -> c -> a)`, async () => {
      const s = await bed.server((body, n) => {
        const sub = systemOf(body).startsWith("You are a sub-agent");
        if (!sub) return n === 0 ? activate(mode, "frk-a", "add") : n === 1 ? activate(mode, "frk-b", "add") : { content: "parent done" };
        const subCalls = body.messages.filter((m) => m.role === "assistant").length;
        return subCalls === 0 ? activate(mode, "frk-c", "add") : subCalls === 1 ? activate(mode, "frk-a", "add") : { content: "SUB-DONE" };
      });
      const { result } = await run(s, mode);
      const subResults = ofType(result.events, "tool_result").filter((e) => e.depth === 1);
      expect(subResults.map((r) => r.ok)).toEqual([true, false]);
      expect(subResults[1]!.output).toContain("Activation cycle: frk-a -> frk-b -> frk-c -> frk-a.");
      expect(result.answer).toBe("parent done");
    });

    it(`${mode}: depth is capped at 5 by default and by the setting`, async () => {
      const chain = (k: number) => Array.from({ length: k }, (_, i) => activate(mode, `deep-${i + 1}`, "add"));
      const s = await bed.server([...chain(6), { content: "deep enough" }]);
      const { result } = await run(s, mode, { maxLoadedSkills: 10 });
      const results = ofType(result.events, "tool_result");
      expect(results.map((r) => r.ok)).toEqual([true, true, true, true, true, false]);
      expect(results[5]!.output).toContain("Activation depth limit: deep-1 -> deep-2 -> deep-3 -> deep-4 -> deep-5 -> deep-6 would be 6 skills deep, the limit is 5.");

      const s2 = await bed.server([...chain(3), { content: "ok" }]);
      const two = await run(s2, mode, { maxActivationDepth: 2 });
      expect(ofType(two.result.events, "tool_result").map((r) => r.ok)).toEqual([true, true, false]);
    });
  }
});
