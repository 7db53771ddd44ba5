// A script_run event names the skill whose script ran, also when that skill is not the most recent one
// (issue 37 item 9: the playground's step said data-analysis for pdf-processing's script). Through the real loop,
// the real runner and a scripted OpenAI-compatible server on 127.0.0.1.
import { describe, expect, it } from "vitest";
import { MemoryAuditSink } from "../audit/events";
import { openAiCompatibleProvider } from "./ai-providers";
import { runAgent } from "./loop";
import { ofType, scriptedAgentBed, type ScriptedReply } from "./test-support/agent";
import type { DisclosureMode } from "./types";

const bed = scriptedAgentBed((world) => {
  world.skill("pdf-processing", { description: "Work with PDF files.", body: "# PDF\n", files: { "scripts/extract.py": "print('PDF-EXTRACT-RAN')\n" } });
  world.skill("data-analysis", { description: "Analyse CSV data.", body: "# Data\n", files: { "scripts/stats.py": "print('STATS-RAN')\n" } });
});

async function run(mode: DisclosureMode, replies: ScriptedReply[]) {
  const s = await bed.server([...replies, { content: "done" }]);
  const audit = new MemoryAuditSink();
  const result = await runAgent({ request: "extract and analyse", mode, provider: openAiCompatibleProvider({ OPENAI_BASE_URL: s.baseURL, OPENAI_API_KEY: "k", OMNIFORGE_MODEL: "scripted" }), ...bed.runs(), audit, sessionId: "sess-events", userId: "ann" });
  return { scripts: ofType(result.events, "script_run"), executed: audit.events.filter((e) => e.type === "script_executed") };
}

describe("script_run names the skill whose script ran", () => {
  it("orchestrated: skills.run_script with skill pdf-processing while data-analysis was loaded last", async () => {
    const { scripts, executed } = await run("orchestrated", [
      { toolCalls: [{ name: "skills_load", arguments: { names: ["pdf-processing", "data-analysis"], mode: "add" } }] },
      { toolCalls: [{ name: "skills_run_script", arguments: { skill: "pdf-processing", path: "scripts/extract.py" } }] },
      { toolCalls: [{ name: "skills_run_script", arguments: { path: "scripts/stats.py" } }] },
    ]);
    expect(scripts.map((e) => [e.skill, e.stdout.trim()])).toEqual([["pdf-processing", "PDF-EXTRACT-RAN"], ["data-analysis", "STATS-RAN"]]);
    expect(executed.map((e) => e.skill)).toEqual(["pdf-processing", "data-analysis"]);
  });

  it("tool mode: run_script with skill naming the skill below the top", async () => {
    const { scripts } = await run("tool", [
      { toolCalls: [{ name: "skill", arguments: { name: "pdf-processing" } }] },
      { toolCalls: [{ name: "skill", arguments: { name: "data-analysis" } }] },
      { toolCalls: [{ name: "run_script", arguments: { skill: "pdf-processing", path: "scripts/extract.py" } }] },
    ]);
    expect(scripts.map((e) => e.skill)).toEqual(["pdf-processing"]);
  });
});
