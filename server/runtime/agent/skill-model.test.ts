// A skill's `model` field where the host cannot switch: said once per run, not at every activation (issue 37
// item 6). Through the real loop and a scripted OpenAI-compatible server on 127.0.0.1.
import { describe, expect, it } from "vitest";
import { MemoryAuditSink } from "../audit/events";
import { openAiCompatibleProvider } from "./ai-providers";
import { runAgent } from "./loop";
import { ofType, scriptedAgentBed, toolMessages } from "./test-support/agent";

const bed = scriptedAgentBed((world) => {
  world.skill("writer-a", { description: "Write letters.", frontmatter: "model: claude-opus-4", body: "# A\n" });
  world.skill("writer-b", { description: "Write memos.", frontmatter: "model: claude-opus-4", body: "# B\n" });
});

describe("a skill model the host cannot give", () => {
  it("is said once per run: one skill_model event and one note, however many skills ask for it", async () => {
    const s = await bed.server([
      { toolCalls: [{ name: "skill", arguments: { name: "writer-a" } }] },
      { toolCalls: [{ name: "skill", arguments: { name: "writer-b" } }] },
      { content: "done" },
    ]);
    const result = await runAgent({ request: "write", mode: "tool", provider: openAiCompatibleProvider({ OPENAI_BASE_URL: s.baseURL, OPENAI_API_KEY: "k", OMNIFORGE_MODEL: "small-model" }), ...bed.runs(), audit: new MemoryAuditSink(), sessionId: "sess-model", userId: "ann", modelFor: () => "the anthropic provider is not configured here" });
    expect(ofType(result.events, "skill_model")).toEqual([expect.objectContaining({ skill: "writer-a", model: "claude-opus-4", used: false })]);
    const notes = toolMessages(s.requests[2]!).filter((m) => m.includes("asks for the model"));
    expect(notes).toHaveLength(1);
    expect(s.requests.map((b) => b.model)).toEqual(["small-model", "small-model", "small-model"]);
  });
});
