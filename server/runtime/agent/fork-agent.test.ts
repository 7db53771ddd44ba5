// A fork skill's `agent` field against the scripted OpenAI-compatible server: what the sub-agent is offered and
// what the parent is told, for a read-only built-in type, the default, and a type this runtime does not define.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryAuditSink } from "../audit/events";
import { openAiCompatibleProvider } from "./ai-providers";
import { runAgent } from "./loop";
import { makeAgentWorld, scriptedOpenAiServer, systemOf, toolMessages, toolNames, type AgentWorld, type ScriptedServer } from "./test-support/agent";

let world: AgentWorld;
const servers: ScriptedServer[] = [];

beforeAll(() => {
  world = makeAgentWorld();
  world.skill("code-survey", { description: "Surveys a codebase and reports its layout.", frontmatter: "context: fork\nagent: Explore", body: "# Survey\n\nList the folders.\n" });
  world.skill("release-prep", { description: "Prepares a release.", frontmatter: "context: fork", body: "# Release\n\nWrite the notes.\n" });
  world.skill("style-review", { description: "Reviews style.", frontmatter: "context: fork\nagent: style-reviewer", body: "# Review\n\nReview it.\n" });
});
afterAll(async () => {
  for (const s of servers) await s.close();
  world?.cleanup();
});


/** Runs a turn whose parent activates `skill`; returns the sub-agent's request and the parent's last request. */
async function forkOf(skill: string) {
  const s = await scriptedOpenAiServer((body, n) => {
    if (systemOf(body).startsWith("You are a sub-agent")) return { content: "SUB-DONE" };
    return n === 0 ? { toolCalls: [{ name: "skill", arguments: { name: skill } }] } : { content: "parent done" };
  });
  servers.push(s);
  const result = await runAgent({
    request: "go",
    mode: "tool",
    provider: openAiCompatibleProvider({ OPENAI_BASE_URL: s.baseURL, OPENAI_API_KEY: "k-test", OMNIFORGE_MODEL: "scripted-model" }),
    skills: { index: world.index() },
    audit: new MemoryAuditSink(),
    scratchDir: world.scratch,
    sessionId: "s-fork-agent",
    userId: "u",
  });
  expect(result.reason).toBe("answered");
  return { sub: s.requests[1]!, parent: s.requests[2]! };
}

describe("a fork skill's agent field", () => {
  it("Explore runs a read-only sub-agent: no tool that writes or runs, and both sides are told", async () => {
    const { sub, parent } = await forkOf("code-survey");
    expect(toolNames(sub)).toContain("read_file");
    for (const t of ["bash", "write_file", "run_script"]) expect(toolNames(sub)).not.toContain(t);
    expect(systemOf(sub)).toContain("You run as the Explore agent: read-only");
    expect(toolMessages(parent)[0]).toContain("SUB-DONE");
    expect(toolMessages(parent)[0]).toContain("runs as the Explore agent");
  });

  it("without the field the sub-agent has every tool of the mode and nothing is added", async () => {
    const { sub, parent } = await forkOf("release-prep");
    for (const t of ["bash", "write_file", "run_script", "read_file"]) expect(toolNames(sub)).toContain(t);
    expect(systemOf(sub)).not.toContain("read-only");
    expect(toolMessages(parent)[0]).not.toMatch(/runs as the|asks for the agent/);
  });

  it("a type this runtime does not define runs as general-purpose and the parent is told so", async () => {
    const { sub, parent } = await forkOf("style-review");
    expect(toolNames(sub)).toContain("bash");
    expect(toolMessages(parent)[0]).toContain("asks for the agent 'style-reviewer', which is not defined here: its sub-agent ran as general-purpose");
  });
});
