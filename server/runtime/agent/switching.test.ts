// Spec 004 "Skill Switching" through the real loop and a scripted OpenAI-compatible server on 127.0.0.1: coming
// back to an earlier skill is a normal flow, not an activation cycle (issue 37 item 1); a skill that activates
// itself through the skills it activated while still active is one.
import { describe, expect, it } from "vitest";
import { MemoryAuditSink } from "../audit/events";
import { openAiCompatibleProvider } from "./ai-providers";
import { runAgent } from "./loop";
import { ofType, scriptedAgentBed, systemOf, type ScriptedReply, type ScriptedServer } from "./test-support/agent";

const bed = scriptedAgentBed((world) => {
  for (const [name, next] of [["sw-a", "sw-b"], ["sw-b", "sw-c"], ["sw-c", "sw-a"]] as const) {
    world.skill(name, { description: `Switching step ${name}.`, body: `# ${name}\n\nBODY-${name.toUpperCase()}. Then load ${next}.\n` });
  }
});

const load = (names: string[], mode?: "replace" | "add"): ScriptedReply => ({ toolCalls: [{ name: "skills_load", arguments: { names, ...(mode ? { mode } : {}) } }] });
const unload = (names: string[]): ScriptedReply => ({ toolCalls: [{ name: "skills_unload", arguments: { names } }] });

async function run(s: ScriptedServer) {
  const result = await runAgent({ request: "switch skills", mode: "orchestrated", provider: openAiCompatibleProvider({ OPENAI_BASE_URL: s.baseURL, OPENAI_API_KEY: "k", OMNIFORGE_MODEL: "scripted" }), ...bed.runs(), sessionId: "sess-switch", userId: "ann", audit: new MemoryAuditSink() });
  return { result, results: ofType(result.events, "tool_result") };
}

/** The names inside <active_skills> of a recorded call, in order. */
const injected = (system: string) => [...(system.split("<active_skills>\n").at(-1) ?? "").matchAll(/<skill name="([^"]+)"/g)].map((m) => m[1]);

describe("spec 004 skill switching (orchestrated mode)", () => {
  it("load a, replace with b, replace with a: each load succeeds and the next call injects only the new skill", async () => {
    const s = await bed.server([load(["sw-a"]), load(["sw-b"], "replace"), load(["sw-a"], "replace"), { content: "done" }]);
    const { result, results } = await run(s);
    expect(results.map((r) => [r.ok, r.output.includes("Activation cycle")])).toEqual([[true, false], [true, false], [true, false]]);
    expect(s.requests.slice(1).map((b) => injected(systemOf(b)))).toEqual([["sw-a"], ["sw-b"], ["sw-a"]]);
    expect(ofType(result.events, "skill_activated").map((e) => e.skill)).toEqual(["sw-a", "sw-b", "sw-a"]);
    expect(result.answer).toBe("done");
  });

  it("load a, add b, unload a, add a again: a comes back after b", async () => {
    const s = await bed.server([load(["sw-a"]), load(["sw-b"], "add"), unload(["sw-a"]), load(["sw-a"], "add"), { content: "done" }]);
    const { results } = await run(s);
    expect(results.map((r) => r.ok)).toEqual([true, true, true, true]);
    expect(results[3]!.output).not.toContain("Activation cycle");
    expect(injected(systemOf(s.requests[4]!))).toEqual(["sw-b", "sw-a"]);
  });

  it("a -> b -> c -> a with every skill still loaded is a cycle, refused with the chain shown, while the switches above are not", async () => {
    const s = await bed.server([load(["sw-a"]), load(["sw-b"], "add"), load(["sw-c"], "add"), load(["sw-a"], "add"), { content: "stopped" }]);
    const { results } = await run(s);
    expect(results.map((r) => r.ok)).toEqual([true, true, true, false]);
    expect(results[3]!.output).toContain("Activation cycle: sw-a -> sw-b -> sw-c -> sw-a.");
    expect(injected(systemOf(s.requests[4]!))).toEqual(["sw-a", "sw-b", "sw-c"]);
  });

  it("a -> replace b -> replace c -> replace a is a switch each time: a was no longer loaded when it came back", async () => {
    const s = await bed.server([load(["sw-a"]), load(["sw-b"]), load(["sw-c"]), load(["sw-a"]), { content: "done" }]);
    const { results } = await run(s);
    expect(results.map((r) => r.ok)).toEqual([true, true, true, true]);
    expect(injected(systemOf(s.requests[4]!))).toEqual(["sw-a"]);
  });
});
