// The preview must be what runAgent sends: each mode is run against the scripted OpenAI-compatible server,
// the model activates the skill, and the listing and activation strings in the HTTP bodies are compared.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nullAuditSink } from "../audit/events";
import { estimateTokens } from "../skill/tokens";
import { openAiCompatibleProvider } from "./ai-providers";
import { disclosurePreview } from "./disclosure";
import { runAgent } from "./loop";
import { makeAgentWorld, scriptedOpenAiServer, systemOf, toolMessages, type AgentWorld, type ScriptedReply } from "./test-support/agent";
import type { DisclosureMode } from "./types";

let world: AgentWorld;

beforeAll(() => {
  world = makeAgentWorld();
  world.skill("release-notes", {
    description: "Write release notes from merged pull requests. Use when the user asks for a changelog or release notes.",
    frontmatter: "allowed-tools: read_file",
    body: "# Release notes\n\nGroup changes by Added, Fixed and Removed. See [style](references/style.md).\n",
    files: { "references/style.md": "Short lines.\n" },
  });
});
afterAll(() => world.cleanup());


async function sent(mode: DisclosureMode, activate: ScriptedReply) {
  const server = await scriptedOpenAiServer([activate, { content: "done" }]);
  try {
    const provider = openAiCompatibleProvider({ OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "k", OMNIFORGE_MODEL: "scripted" });
    const result = await runAgent({ request: "write the release notes", mode, provider, skills: { index: world.index() }, audit: nullAuditSink, scratchDir: world.scratch, sessionId: "s", userId: "u" });
    expect(result.reason).toBe("answered");
    expect(result.activated).toEqual(["release-notes"]);
    return server.requests;
  } finally {
    await server.close();
  }
}

describe("disclosurePreview is what runAgent sends", () => {
  const entry = () => world.index().entries().find((e) => e.name === "release-notes")!;

  it("tool mode: the listing is in the skill tool's description and the activation is the skill tool's result", async () => {
    const preview = (await disclosurePreview(entry()))["tool"];
    const [first, second] = await sent("tool", { toolCalls: [{ name: "skill", arguments: { name: "release-notes" } }] });
    const skillTool = first!.tools!.find((t) => t.function.name === "skill")!;
    expect(skillTool.function.description).toContain(preview.listing);
    expect(preview.listing).toContain('"release-notes": Write release notes');
    expect(toolMessages(second!)).toEqual([preview.activation]);
    expect(preview.activation).toMatch(/^Skill 'release-notes' activated\. Base path: /);
    expect(preview.tokens).toEqual({ listing: estimateTokens(preview.listing), activation: estimateTokens(preview.activation) });
  });

  it("prompt mode: the listing with the SKILL.md location is in the system prompt; reading it returns the file", async () => {
    const e = entry();
    const preview = (await disclosurePreview(e))["prompt"];
    const [first, second] = await sent("prompt", { toolCalls: [{ name: "read_file", arguments: { path: e.file } }] });
    expect(systemOf(first!)).toContain(preview.listing);
    expect(preview.listing).toContain(`<location>${e.file}</location>`);
    expect(toolMessages(second!)).toEqual([preview.activation]);
    expect(preview.activation).toContain("# Release notes");
  });

  it("orchestrated mode: the receipt is the tool result and the body is injected as <active_skills>", async () => {
    const preview = (await disclosurePreview(entry()))["orchestrated"];
    const [first, second] = await sent("orchestrated", { toolCalls: [{ name: "skills_load", arguments: { names: ["release-notes"] } }] });
    expect(systemOf(first!)).toContain(preview.listing);
    expect(toolMessages(second!)).toEqual([preview.activation]);
    expect(preview.injected).toBeDefined();
    expect(systemOf(second!)).toContain(preview.injected!);
    expect(preview.tokens.activation).toBe(estimateTokens(preview.activation) + estimateTokens(preview.injected!));
  });
});
