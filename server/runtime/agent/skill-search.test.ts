// The skill_search tool (skills.search in orchestrated mode) in every disclosure mode: it finds skills the
// request-ranked listing left out, returns name, description and location, and never finds what resolution
// keeps from the run (a blocked or out-of-scope skill).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryAuditSink } from "../audit/events";
import { runAgent } from "./loop";
import { makeAgentWorld, type AgentWorld } from "./test-support/agent";
import type { AgentEvent, DisclosureMode, ModelProvider, ModelRequest } from "./types";

let world: AgentWorld;
beforeAll(() => {
  world = makeAgentWorld();
  for (let i = 0; i < 60; i++) {
    world.skill(`filler-${String(i).padStart(2, "0")}`, { description: `Handles chores of kind ${i}, sorting, filing, tidying and other routine work for team ${i}.`, body: "# Chores\n" });
  }
  world.skill("invoice-pdf", { description: "Render invoices as PDF documents with the company letterhead.", body: "# Invoices\n\n## Letterhead\n" });
  world.skill("invoice-secret", { description: "Render invoices as PDF with the vault's signing key.", body: "# Signed invoices\n" });
  world.skill("invoice-prod", { description: "Render invoices as PDF in production only.", frontmatter: "scope:\n  environments: [production]", body: "# Prod invoices\n" });
});
afterAll(() => world?.cleanup());

/** A model that searches first, then answers with what it found. */
function searcher(query: string): ModelProvider & { seen: ModelRequest[] } {
  const seen: ModelRequest[] = [];
  return {
    name: "searcher",
    model: "searcher-1",
    contextTokens: 200_000,
    seen,
    async complete(req) {
      seen.push(req);
      const tool = req.tools.find((t) => t.name === "skill_search" || t.name === "skills.search")!;
      if (seen.length === 1) return { text: "", toolCalls: [{ id: "s1", name: tool.name, input: { query, limit: 10 } }] };
      return { text: "found", toolCalls: [] };
    },
  };
}

describe.each(["tool", "prompt", "orchestrated"] as const)("skill search, %s mode", (mode: DisclosureMode) => {
  it("finds a skill the listing left out, with name, description and location; never a blocked or out-of-scope one", async () => {
    const provider = searcher("make a pdf invoice");
    const result = await runAgent({
      // The request the listing is ranked for says nothing about invoices.
      request: "tidy the chores of team 7",
      mode,
      provider,
      skills: { index: world.index(), context: { environment: "staging", policy: { blockedNames: ["invoice-secret"], disabled: [] } } },
      audit: new MemoryAuditSink(),
      scratchDir: world.scratch,
      sessionId: "s",
      userId: "u",
      listingBudgetChars: 1500,
    });
    expect(result.reason).toBe("answered");
    const started = result.events[0] as Extract<AgentEvent, { type: "run_started" }>;
    expect(started.listing.strategy).toBe("ranked");
    expect(started.listing.described[0]).toBe("filler-07");
    expect(started.listing.omittedNames).toContain("invoice-pdf");
    expect(started.listing.total).toBe(61);
    expect(started.listing.text).toContain(`call ${mode === "orchestrated" ? "skills.search" : "skill_search"} with what you need`);

    const res = result.events.find((e) => e.type === "tool_result" && e.callId === "s1") as Extract<AgentEvent, { type: "tool_result" }>;
    expect(res.ok).toBe(true);
    const out = JSON.parse(res.output) as { results: { name: string; description: string; location: string }[]; abstain: boolean };
    expect(out.abstain).toBe(false);
    expect(out.results[0]).toEqual({
      name: "invoice-pdf",
      description: "Render invoices as PDF documents with the company letterhead.",
      location: `${world.project}/.omniforge/skills/invoice-pdf/SKILL.md`,
    });
    const names = out.results.map((r) => r.name);
    expect(names).not.toContain("invoice-secret");
    expect(names).not.toContain("invoice-prod");
  });
});

describe("the listing follows the conversation", () => {
  it("ranks for the user's earlier requests too, below the current one", async () => {
    const provider = searcher("anything");
    const result = await runAgent({
      request: "now do the same again please",
      history: [
        { role: "user", content: "tidy the chores of team 7" },
        { role: "assistant", content: "done" },
      ],
      mode: "tool",
      provider,
      skills: { index: world.index() },
      audit: new MemoryAuditSink(),
      scratchDir: world.scratch,
      sessionId: "s",
      userId: "u",
      listingBudgetChars: 1500,
    });
    const started = result.events[0] as Extract<AgentEvent, { type: "run_started" }>;
    expect(started.listing.strategy).toBe("ranked");
    expect(started.listing.described[0]).toBe("filler-07");
  });
});
