// Seed 000: the arguments of a skill's invocation travel with it, for skills that are not `context: fork` too
// (issue 37 item 3): the model sees them with the instructions, and the audit's skill_activated keeps them.
// Through the real loop against a scripted OpenAI-compatible server on 127.0.0.1.
import { describe, expect, it } from "vitest";
import { MemoryAuditSink } from "../audit/events";
import { openAiCompatibleProvider } from "./ai-providers";
import { runAgent } from "./loop";
import { scriptedAgentBed, toolMessages, type ScriptedReply } from "./test-support/agent";
import type { DisclosureMode } from "./types";

const bed = scriptedAgentBed((world) => {
  world.skill("quarter-report", { description: "Build a quarterly report.", body: "# Quarter report\n\nBODY-QR. Work on the quarter the arguments name.\n" });
});

async function run(mode: DisclosureMode, call: ScriptedReply) {
  const s = await bed.server([call, { content: "done" }]);
  const audit = new MemoryAuditSink();
  await runAgent({ request: "report", mode, provider: openAiCompatibleProvider({ OPENAI_BASE_URL: s.baseURL, OPENAI_API_KEY: "k", OMNIFORGE_MODEL: "scripted" }), ...bed.runs(), audit, sessionId: "sess-args", userId: "ann" });
  const activated = audit.events.filter((e) => e.type === "skill_activated");
  return { seen: toolMessages(s.requests[1]!)[0]!, activated };
}

describe("invocation arguments of a skill that is not a fork", () => {
  it("tool mode: {skill_name, args} (seed 000's words) brings the args back with the body, and the audit keeps them", async () => {
    const { seen, activated } = await run("tool", { toolCalls: [{ name: "skill", arguments: { skill_name: "quarter-report", args: "Q3 2026, sales.csv" } }] });
    expect(seen).toContain("BODY-QR");
    expect(seen).toContain("ARGUMENTS: Q3 2026, sales.csv");
    expect(activated).toHaveLength(1);
    expect(activated[0]!.details).toMatchObject({ args: "Q3 2026, sales.csv" });
  });

  it("orchestrated mode: skills.load's task is in the receipt and the audit", async () => {
    const { seen, activated } = await run("orchestrated", { toolCalls: [{ name: "skills_load", arguments: { names: ["quarter-report"], task: "Q4 only" } }] });
    expect(JSON.parse(seen)).toMatchObject({ active_skills: [{ name: "quarter-report" }], arguments: "Q4 only" });
    expect(activated[0]!.details).toMatchObject({ args: "Q4 only" });
  });

  it("a secret in the args is masked in the audit", async () => {
    const { activated } = await run("tool", { toolCalls: [{ name: "skill", arguments: { name: "quarter-report", args: "use API_TOKEN=sk-abcdefghijklmnopqrstuvwx" } }] });
    const args = String(activated[0]!.details?.args);
    expect(args).toMatch(/^use API_TOKEN=/);
    expect(args).not.toContain("sk-abcdefghijklmnopqrstuvwx");
  });
});
