// The one ranking with meaning beside words (issue 36, optional), as `agent run`, the playground and trigger tests get
// it through runAgent: against a scripted embeddings server on 127.0.0.1, the offline provider activates the skill the
// fused ranking puts first; skill vectors are computed once per SKILL.md digest for the process and the data home; a
// failing endpoint leaves words alone ranking, said once per outage in the run's routing notes, until it answers
// again after its back-off (said once too). And a model
// provider asked to choose among the top k (a scripted model server): its pick goes first, anything else is ignored.
import fs from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemoryAuditSink } from "../audit/events";
import { HybridRanker, hybridRankerFor } from "../search/hybrid";
import { VectorStore } from "../search/embeddings";
import { scriptedEmbeddings, type EmbeddingsServer } from "../search/test-support/search";
import { openAiCompatibleProvider } from "./ai-providers";
import { runAgent } from "./loop";
import { runTriggerEval } from "../evals/run";
import { OfflineProvider } from "./offline";
import type { RoutingExtras } from "./routing-settings";
import { makeAgentWorld, ofType, scriptedOpenAiServer, systemOf, type AgentWorld, type ChatRequestBody } from "./test-support/agent";
import type { AgentRunResult, ModelProvider } from "./types";

const SKILLS = {
  "wetlab-assays": "Order binding assays for antibodies from a partner laboratory.",
  "latency-tuner": "Bring down the p99 of web services under load.",
  "poem-writer": "Write short poems and haiku for any occasion.",
  "design-notes": "Write design notes for the target architecture of an invoice, billing and payment system.",
};
// Words put design-notes first ('designs', 'target'); meaning puts the wet-lab skill first (peptides, stick).
const REQUEST = "check whether the peptides I ordered stick to the target of our designs";

let world: AgentWorld;
let server: EmbeddingsServer;
beforeAll(async () => {
  world = makeAgentWorld();
  for (const [name, description] of Object.entries(SKILLS)) world.skill(name, { description, body: `# ${name}\n\nSteps.\n` });
  server = await scriptedEmbeddings();
});
afterAll(async () => {
  await server?.close();
  world?.cleanup();
});
beforeEach(() => {
  server.mode = "ok";
  server.calls.length = 0;
  fs.rmSync(`${world.home}/embeddings`, { recursive: true, force: true });
});

const run = (routing: RoutingExtras | undefined, provider: ModelProvider = new OfflineProvider(), listingBudgetChars?: number): Promise<AgentRunResult> =>
  runAgent({
    request: REQUEST,
    mode: "tool",
    provider,
    skills: { index: world.index() },
    ...(routing ? { routing } : {}),
    audit: new MemoryAuditSink(),
    scratchDir: world.scratch,
    sessionId: "s",
    userId: "u",
    stepLimit: 1,
    ...(listingBudgetChars ? { listingBudgetChars } : {}),
  });
const activated = (r: AgentRunResult) => ofType(r.events, "skill_activated").map((e) => e.skill);
const started = (r: AgentRunResult) => ofType(r.events, "run_started")[0]!;
/** A ranker as a new process gets it: its own store, read from the data home. */
const freshRanker = (timeoutMs?: number, clock?: { ms: number }) => {
  const cfg = { url: server.url, model: "scripted-1", ...(timeoutMs ? { timeoutMs } : {}) };
  return new HybridRanker(cfg, new VectorStore(world.home, cfg), clock ? { now: () => clock.ms } : {});
};

describe("routing with meaning beside words", () => {
  it("the offline provider activates the skill the fused ranking puts first, where words alone chose another", async () => {
    expect(activated(await run(undefined))).toEqual(["design-notes"]);
    expect(server.calls).toEqual([]); // off unless configured
    const fused = await run({ meaning: freshRanker() });
    expect(activated(fused)).toEqual(["wetlab-assays"]);
    expect(started(fused).routing).toBeUndefined();
    expect(ofType(fused.events, "skill_selected")[0]!.reason).toMatch(/found by words #2, meaning #1 \(similarity [01]\.\d\d\)/);
  });

  it("embeds each skill once: later runs of the process and a new process embed only the request", async () => {
    const ranker = freshRanker();
    await run({ meaning: ranker });
    await run({ meaning: ranker });
    expect(server.calls).toEqual([4, 1, 1]);
    server.calls.length = 0;
    await run({ meaning: freshRanker() });
    expect(server.calls).toEqual([1]);
  });

  for (const [mode, code] of [
    ["error", "embeddings.http: the server answered 500"],
    ["hang", "embeddings.timeout: no answer within 0 s"],
    ["short-request-vectors", "embeddings.dimension: the request's vector has 3 dimensions, the skills' 4"],
  ] as const) {
    it(`a failing endpoint (${mode}) leaves words alone ranking, said in the first run's routing notes only`, async () => {
      server.mode = mode;
      const meaning = freshRanker(300);
      const first = await run({ meaning });
      expect(started(first).routing).toEqual([`the embeddings endpoint failed (${code}): ranked by words only until it answers again (tried again in 30 s, then less often while it fails)`]);
      expect(activated(first)).toEqual(["design-notes"]);
      const calls = server.calls.length;
      const second = await run({ meaning });
      expect(started(second).routing).toBeUndefined();
      expect(activated(second)).toEqual(["design-notes"]);
      expect(server.calls.length).toBe(calls); // not asked again during the back-off
    });
  }

  it("an endpoint that answers again after its back-off: the next run is fused again and its notes say so, once", async () => {
    server.mode = "error";
    const clock = { ms: 0 };
    const meaning = freshRanker(300, clock);
    expect(activated(await run({ meaning }))).toEqual(["design-notes"]);
    server.mode = "ok";
    expect(started(await run({ meaning })).routing).toBeUndefined(); // within the back-off: words, quietly
    clock.ms = 30_000;
    const back = await run({ meaning });
    expect(started(back).routing).toEqual(["the embeddings endpoint answers again (after 30 s by words only): ranked by words and meaning"]);
    expect(activated(back)).toEqual(["wetlab-assays"]);
    const next = await run({ meaning });
    expect(started(next).routing).toBeUndefined();
    expect(activated(next)).toEqual(["wetlab-assays"]);
  });

  it("the process's ranker is one per endpoint, model and data home (what every door of a process shares)", () => {
    const cfg = { url: server.url, model: "scripted-1" };
    expect(hybridRankerFor(cfg, world.home)).toBe(hybridRankerFor({ ...cfg }, world.home));
    expect(hybridRankerFor(cfg, world.home)).not.toBe(hybridRankerFor({ ...cfg, model: "scripted-2" }, world.home));
  });
});

describe("skill_search mid-run ranks as the router does", () => {
  /** A model that searches for the request first, then stops. */
  const searcher: ModelProvider = {
    name: "searcher",
    model: "searcher-1",
    contextTokens: 200_000,
    async complete(req) {
      if (!req.messages.some((m) => m.role === "tool")) return { text: "", toolCalls: [{ id: "s1", name: "skill_search", input: { query: REQUEST, limit: 2 } }] };
      return { text: "found", toolCalls: [] };
    },
  };
  const found = async (routing?: RoutingExtras) => {
    const r = await runAgent({ request: "help me", mode: "tool", provider: searcher, skills: { index: world.index() }, ...(routing ? { routing } : {}), audit: new MemoryAuditSink(), scratchDir: world.scratch, sessionId: "s", userId: "u" });
    const result = ofType(r.events, "tool_result").find((e) => e.tool === "skill_search")!;
    return (JSON.parse(result.output) as { results: { name: string }[] }).results.map((x) => x.name);
  };

  it("with meaning configured, finds the skill the fused ranking puts first; by words alone, the lexical first", async () => {
    expect(await found({ meaning: freshRanker() })).toEqual(["wetlab-assays", "design-notes"]);
    expect(await found()).toEqual(["design-notes", "wetlab-assays"]);
  });
});

describe("trigger tests route as the agent does", () => {
  it("a trigger query fires the skill the fused ranking puts first, and a failed one's why is that ranking", async () => {
    const index = world.index();
    const base = { cases: [{ query: REQUEST, should_trigger: true }], skills: { index }, searchIndex: index, provider: new OfflineProvider(), mode: "tool" as const, scratchDir: world.scratch };
    const routing = { meaning: freshRanker() };
    const [wet] = await runTriggerEval({ ...base, skill: "wetlab-assays", routing });
    expect(wet).toMatchObject({ passed: true, chosen: ["wetlab-assays"] });
    const [design] = await runTriggerEval({ ...base, skill: "design-notes", routing });
    expect(design).toMatchObject({ passed: false, chosen: ["wetlab-assays"] });
    expect(design!.why![0]).toMatch(/^wetlab-assays: .*found by words #2, meaning #1 /);
    const [words] = await runTriggerEval({ ...base, skill: "design-notes" }); // not configured: words alone
    expect(words).toMatchObject({ passed: true, chosen: ["design-notes"] });
  });
});

describe("the model's pick among the top k", () => {
  const isPick = (b: ChatRequestBody) => systemOf(b).startsWith("You route a user's request to one skill.");
  const provider = (baseURL: string) => openAiCompatibleProvider({ OPENAI_BASE_URL: baseURL, OPENAI_API_KEY: "sk-test", OMNIFORGE_MODEL: "scripted-model" });

  it("asks the model among the first k, puts its pick first in the listing and says so in the steps", async () => {
    const model = await scriptedOpenAiServer((b) => (isPick(b) ? { content: "`wetlab-assays`" } : { content: "done" }));
    try {
      // A budget that describes one skill: the listing's first is the pick.
      const r = await run({ pickTopK: 3 }, provider(model.baseURL), 250);
      expect(started(r).routing).toEqual(["asked the model to choose among 2: picked wetlab-assays (the ranking's #2)"]);
      expect(started(r).listing.described[0]).toBe("wetlab-assays");
      const asked = model.requests.find(isPick)!;
      expect(asked.tools ?? []).toEqual([]);
      const offered = String(asked.messages.find((m) => m.role === "user")!.content);
      expect(offered).toContain("- design-notes: ");
      expect(offered).toContain("- wetlab-assays: ");
      expect(offered).not.toContain("poem-writer");
      expect(model.requests).toHaveLength(2); // the pick, then the run's one step
    } finally {
      await model.close();
    }
  });

  it("an answer that is not one of the offered names keeps the ranking's first", async () => {
    const model = await scriptedOpenAiServer((b) => (isPick(b) ? { content: "poem-writer, surely" } : { content: "done" }));
    try {
      const r = await run({ pickTopK: 5 }, provider(model.baseURL), 250);
      expect(started(r).routing).toEqual([`asked the model to choose among 2: it answered "poem-writer, surely", not one of them; kept the ranking's first, design-notes`]);
      expect(started(r).listing.described[0]).toBe("design-notes");
    } finally {
      await model.close();
    }
  });

  it("the offline provider is never asked: its choice is the ranking's first", async () => {
    const r = await run({ pickTopK: 5 });
    expect(started(r).routing).toBeUndefined();
    expect(activated(r)).toEqual(["design-notes"]);
  });
});
