// Trigger evals: the file formats (skill-creator round trip, diagnostics with line/column), a run through the
// agent's own selection path with the offline provider and with a scripted OpenAI-compatible server on 127.0.0.1
// (3 runs per query, an errored provider), and the summary arithmetic.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAiCompatibleProvider } from "../agent/ai-providers";
import { OfflineProvider } from "../agent/offline";
import { makeAgentWorld, scriptedOpenAiServer, type AgentWorld, type ScriptedServer } from "../agent/test-support/agent";
import type { SkillIndex } from "../registry/skill-index";
import { combineCases, formatTriggers, parseTaskEvals, parseTriggers } from "./format";
import { runTriggerEval, type QueryResult } from "./run";
import { compareRuns, summarize } from "./summary";

describe("trigger set format", () => {
  it("reads and writes skill-creator's triggers.json unchanged", () => {
    const text = '[\n  {\n    "query": "fill in this PDF form",\n    "should_trigger": true\n  },\n  {\n    "query": "what is the weather",\n    "should_trigger": false\n  }\n]\n';
    const parsed = parseTriggers(text);
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.value).toEqual([
      { query: "fill in this PDF form", should_trigger: true },
      { query: "what is the weather", should_trigger: false },
    ]);
    expect(formatTriggers(parsed.value)).toBe(text);
  });

  it("bad JSON gets a diagnostic with line and column; bad cases are named and left out", () => {
    const broken = parseTriggers('[\n  {"query": "a", "should_trigger": true}\n  {"query": "b"}\n]');
    expect(broken.value).toEqual([]);
    expect(broken.diagnostics[0]).toMatchObject({ code: "eval.json", line: 3, column: 3 });
    expect(broken.diagnostics[0]!.message).toMatch(/comma expected/);
    const mixed = parseTriggers('[\n  {"query": "ok", "should_trigger": false},\n  {"query": "", "should_trigger": true},\n  {"query": "x", "should_trigger": "yes"}\n]');
    expect(mixed.value).toEqual([{ query: "ok", should_trigger: false }]);
    expect(mixed.diagnostics.map((d) => [d.code, d.line])).toEqual([
      ["eval.query", 3],
      ["eval.shape", 4],
    ]);
    expect(parseTriggers('{"query": "x"}').diagnostics[0]!.code).toBe("eval.shape");
  });

  it("a byte order mark (Notepad's UTF-8) is read past; a repeated query is named and left out", () => {
    const bom = parseTriggers('\uFEFF[\n  {"query": "fill this PDF", "should_trigger": true}\n]\r\n');
    expect(bom).toEqual({ value: [{ query: "fill this PDF", should_trigger: true }], diagnostics: [] });
    expect(parseTaskEvals('\uFEFF{"skill_name": "x", "evals": [{"id": 1, "prompt": "p"}]}').diagnostics).toEqual([]);
    const dup = parseTriggers('[\n  {"query": "a", "should_trigger": true},\n  {"query": "a", "should_trigger": false},\n  {"query": "a", "should_trigger": true}\n]');
    expect(dup.value).toEqual([{ query: "a", should_trigger: true }]);
    expect(dup.diagnostics).toEqual([
      { code: "eval.duplicate", message: 'case 2 repeats the query of case 1 (with the opposite "should_trigger", so one of the two always fails); it is left out', line: 3, column: 3 },
      { code: "eval.duplicate", message: "case 3 repeats the query of case 1 (it would count twice); it is left out", line: 4, column: 3 },
    ]);
  });

  // Issue 35 item 3: 80,000 elements took 11 s (the line of each element was counted from the file's start).
  // 200,000 here: quadratic reading would not finish within the test's time; linear reading is instant.
  it("a huge array is read in one pass: the problems listed are capped and the rest counted, cases beyond 500 said", () => {
    const junk = parseTriggers("[" + Array(200_000).fill("1").join(",\n") + "]");
    expect(junk.value).toEqual([]);
    expect(junk.diagnostics).toHaveLength(51);
    expect(junk.diagnostics[49]).toMatchObject({ code: "eval.shape", line: 50, message: 'case 50 must be an object with "query" and "should_trigger"' });
    expect(junk.diagnostics[50]).toMatchObject({ code: "eval.too-many", message: "199950 more problems are not listed" });
    const many = parseTriggers(formatTriggers(Array.from({ length: 100_000 }, (_, i) => ({ query: `request ${i}`, should_trigger: i % 2 === 0 }))));
    expect(many.value).toHaveLength(500);
    expect(many.diagnostics).toEqual([{ code: "eval.too-many", message: "the set has 100000 cases; at most 500 are run", line: 1, column: 1 }]);
    const cases = Array.from({ length: 100_000 }, (_, i) => `  {"query": "q${i}", "should_trigger": true},\n`).join("");
    const last = parseTriggers(`[\n${cases}  7\n]`);
    expect(last.diagnostics[0]).toMatchObject({ code: "eval.shape", message: expect.stringMatching(/^case 100001 /), line: 100_002, column: 3 });
  });

  it("task evals' prompts join the set as should-trigger cases", () => {
    const tasks = parseTaskEvals(JSON.stringify({ skill_name: "pdf-forms", evals: [{ id: 1, prompt: "Fill the W-9 form", expected_output: "a filled PDF", files: [], expectations: ["fields filled"] }] }, null, 2));
    expect(tasks.diagnostics).toEqual([]);
    expect(tasks.value.skillName).toBe("pdf-forms");
    const cases = combineCases([{ query: "what is the weather", should_trigger: false }], tasks.value.evals);
    expect(cases).toEqual([
      { query: "what is the weather", should_trigger: false, source: { file: "evals/triggers.json" } },
      { query: "Fill the W-9 form", should_trigger: true, source: { file: "evals/evals.json", id: 1 } },
    ]);
  });
});

describe("summary", () => {
  const r = (should_trigger: boolean, passed: boolean, chosen: string[] = [], errored = false): QueryResult => ({
    query: `${should_trigger}-${passed}-${chosen.join()}-${errored}`,
    should_trigger,
    triggered: 0,
    passed,
    errored,
    chosen,
    runs: 1,
    tokens: 0,
    ms: 0,
    listed: "described",
    listingChars: 0,
  });

  it("counts the confusion matrix, leaves errored queries out, and names competitors", () => {
    const s = summarize([r(true, true, ["pdf"]), r(true, false, ["docx"]), r(true, false, ["docx", "xlsx"]), r(false, true), r(false, false, ["pdf"]), r(true, false, [], true)], "pdf");
    expect(s).toMatchObject({ tp: 1, fn: 2, tn: 1, fp: 1, errored: 1, passed: 2, total: 6 });
    expect(s.precision).toBe(0.5);
    expect(s.recall).toBe(0.333);
    expect(s.f1).toBe(0.4);
    expect(s.accuracy).toBe(0.4);
    expect(s.competitors).toEqual([
      { skill: "docx", queries: 2 },
      { skill: "xlsx", queries: 1 },
    ]);
    expect(summarize([r(false, true)], "pdf")).toMatchObject({ precision: null, recall: null, f1: null, accuracy: 1 });
  });

  it("compares two runs query by query", () => {
    const a = [r(true, false), r(false, true)];
    const b = [{ ...a[0]!, passed: true }, { ...a[1]!, passed: false }, { ...r(true, true), query: "new one" }];
    expect(compareRuns(a, b).map((c) => c.change)).toEqual(["fixed", "broke", "new"]);
  });
});

describe("runTriggerEval", () => {
  let world: AgentWorld;
  let index: SkillIndex;
  const servers: ScriptedServer[] = [];
  beforeAll(() => {
    world = makeAgentWorld();
    world.skill("pdf-forms", { description: "Fill PDF forms and list their fields. Use when working with PDF forms or fillable PDF documents.", body: "# PDF\n" });
    world.skill("docx-writer", { description: "Create and edit Word documents (.docx). Use when asked for a Word report or memo.", body: "# DOCX\n" });
    world.skill("weather-report", { description: "Fetch the weather forecast for a city. Use when the user asks about weather.", body: "# Weather\n" });
    index = world.index();
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    world.cleanup();
  });

  it("offline: runs each query once through the real catalog, with rates, who fired, and why a failure failed", async () => {
    const seen: number[] = [];
    const results = await runTriggerEval({
      skill: "pdf-forms",
      cases: [
        { query: "fill in the fields of this PDF form", should_trigger: true },
        { query: "what is the weather in Paris tomorrow", should_trigger: false },
        { query: "write a Word memo for the team", should_trigger: true }, // wrong on purpose: docx fires
      ],
      skills: { index },
      searchIndex: index,
      provider: new OfflineProvider(),
      mode: "tool",
      scratchDir: world.scratch,
      onResult: (_r, i) => seen.push(i),
    });
    expect(seen).toEqual([0, 1, 2]);
    expect(results.map((x) => [x.triggered, x.passed])).toEqual([
      [1, true],
      [0, true],
      [0, false],
    ]);
    expect(results[0]!.chosen).toEqual(["pdf-forms"]);
    expect(results[1]!.chosen).not.toContain("pdf-forms");
    expect(results[2]!.chosen).toEqual(["docx-writer"]);
    expect(results[0]).toMatchObject({ runs: 1, errored: false, listed: "described" });
    expect(results[0]!.listingChars).toBeGreaterThan(0);
    expect(results[2]!.why?.[0]).toMatch(/^docx-writer: /);
    expect(summarize(results, "pdf-forms")).toMatchObject({ tp: 1, fn: 1, tn: 1, fp: 0 });
  });

  // Issue 35 item 5: with the offline provider nothing a run awaits is I/O, so 500 queries were one unbroken
  // stretch of the console's thread. Counted in turns of the event loop, not in time.
  it("gives the event loop a turn between queries, so a 500-case run does not hold other requests", async () => {
    const cases = Array.from({ length: 40 }, (_, i) => ({ query: `fill in PDF form number ${i}`, should_trigger: true }));
    let done = false;
    let turns = 0;
    const tick = () => {
      turns++;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    const results = await runTriggerEval({ skill: "pdf-forms", cases, skills: { index }, searchIndex: index, provider: new OfflineProvider(), mode: "tool", scratchDir: world.scratch });
    done = true;
    expect(results).toHaveLength(40);
    expect(turns).toBeGreaterThanOrEqual(39); // one between each two queries
  });

  it("a model provider: 3 runs per query give a rate; provider errors mark the query errored, not failed", async () => {
    let call = 0;
    // Runs of query 1: fires, fires, does not (answers). Query 2: the server fails (500 on every call).
    const server = await scriptedOpenAiServer((body) => {
      call++;
      const text = JSON.stringify(body.messages);
      if (text.includes("boom")) return { content: "" };
      return call === 3 ? { content: "I can answer that without a skill." } : { toolCalls: [{ name: "skill", arguments: { name: "pdf-forms" } }] };
    });
    servers.push(server);
    const provider = openAiCompatibleProvider({ OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "test-key", OMNIFORGE_MODEL: "gpt-test" });
    const results = await runTriggerEval({
      skill: "pdf-forms",
      cases: [{ query: "fill this PDF form", should_trigger: true }],
      skills: { index },
      provider,
      mode: "tool",
      scratchDir: world.scratch,
    });
    expect(results[0]).toMatchObject({ runs: 3, triggered: 0.667, passed: true, chosen: ["pdf-forms"], errored: false });
    expect(results[0]!.tokens).toBeGreaterThan(0);

    const down = openAiCompatibleProvider({ OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_API_KEY: "k", OMNIFORGE_MODEL: "gpt-test" });
    const failed = await runTriggerEval({ skill: "pdf-forms", cases: [{ query: "fill this PDF form", should_trigger: true }], skills: { index }, provider: down, mode: "tool", runs: 2, scratchDir: world.scratch });
    expect(failed[0]).toMatchObject({ errored: true, passed: false, runs: 2 });
    expect(failed[0]!.error).toBe("Failed after 2 attempts. Last error: AI_APICallError: Cannot connect to API: bad port");
    expect(summarize(failed, "pdf-forms")).toMatchObject({ errored: 1, fn: 0, tp: 0 });
  });

  it("stops when cancelled: the rest of the set is not run", async () => {
    const ctl = new AbortController();
    const results = await runTriggerEval({
      skill: "pdf-forms",
      cases: [
        { query: "fill this PDF form", should_trigger: true },
        { query: "weather in Oslo", should_trigger: false },
      ],
      skills: { index },
      provider: new OfflineProvider(),
      mode: "tool",
      scratchDir: world.scratch,
      onResult: () => ctl.abort(),
      signal: ctl.signal,
    });
    expect(results).toHaveLength(1);
  });

  it("cancelled between the runs of a query: that query is not reported (1 of 3 runs is no rate)", async () => {
    const ctl = new AbortController();
    const server = await scriptedOpenAiServer((_body, n) => {
      if (n === 0) setTimeout(() => ctl.abort(), 50); // Ctrl-C while the second run waits for its answer
      return { toolCalls: [{ name: "skill", arguments: { name: "pdf-forms" } }] };
    }, { delayMs: 300 });
    servers.push(server);
    const provider = openAiCompatibleProvider({ OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "k", OMNIFORGE_MODEL: "gpt-test" });
    const seen: QueryResult[] = [];
    const results = await runTriggerEval({
      skill: "pdf-forms",
      cases: [{ query: "fill this PDF form", should_trigger: true }],
      skills: { index },
      provider,
      mode: "tool",
      runs: 3,
      scratchDir: world.scratch,
      signal: ctl.signal,
      onResult: (r) => seen.push(r),
    });
    expect(server.requests.length).toBeGreaterThanOrEqual(1);
    expect([results, seen]).toEqual([[], []]);
  });
});
