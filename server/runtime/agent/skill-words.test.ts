// The skill tool speaks the seeds' words (issue #14): {skill_name, args} as well as {name, task}, and a miss names
// the closest skill this caller may use, never a blocked one. Driven by the scripted OpenAI-compatible server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryAuditSink } from "../audit/events";
import { openAiCompatibleProvider } from "./ai-providers";
import { runAgent } from "./loop";
import { makeAgentWorld, scriptedOpenAiServer, type AgentWorld, type ScriptedServer } from "./test-support/agent";
import { notFoundMessage } from "../tools/builtin/skill";

let world: AgentWorld;
const servers: ScriptedServer[] = [];
beforeAll(() => {
  world = makeAgentWorld();
  world.skill("pdf-processing", { description: "Process PDF files. Use for PDFs.", body: "# PDF\n\nPDF-BODY-MARKER\n" });
  world.skill("pdf-secrets", { description: "Blocked by policy. Use never.", body: "# Secret\n" });
});
afterAll(async () => {
  for (const s of servers) await s.close();
  world.cleanup();
});

async function run(calls: Record<string, unknown>[]) {
  const server = await scriptedOpenAiServer([...calls.map((c) => ({ toolCalls: [{ name: "skill", arguments: c }] })), { content: "done" }]);
  servers.push(server);
  const results: string[] = [];
  await runAgent({
    request: "process my pdf",
    mode: "tool",
    provider: openAiCompatibleProvider({ OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "k", OMNIFORGE_MODEL: "gpt-test" }),
    skills: { index: world.index(), context: { policy: { blockedNames: ["pdf-secrets"], disabled: [] } } },
    audit: new MemoryAuditSink(),
    scratchDir: world.scratch,
    sessionId: "s",
    userId: "u",
    onEvent: (e) => {
      if (e.type === "tool_result" && e.tool === "skill") results.push(e.output);
    },
  });
  return results;
}

describe("the skill tool's words", () => {
  it("accepts {skill_name, args}; a near miss suggests the closest usable skill", async () => {
    const out = await run([{ skill_name: "pdf-procesing" }, { skill_name: "pdf-processing", args: "the invoice" }]);
    expect(out[0]).toBe("Skill 'pdf-procesing' not found. Did you mean 'pdf-processing'?");
    expect(out[1]).toContain("PDF-BODY-MARKER");
  });

  it("never suggests a blocked skill, and says nothing when nothing is close", () => {
    expect(notFoundMessage("pdf-secret", ["pdf-processing"])).toBe("Skill 'pdf-secret' not found.");
    expect(notFoundMessage("weather", ["pdf-processing"])).toBe("Skill 'weather' not found.");
  });
});
