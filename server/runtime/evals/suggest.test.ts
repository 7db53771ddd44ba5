// The description suggestion loop against a scripted OpenAI-compatible server on 127.0.0.1: the "model" picks the
// skill for invoice requests only once the description mentions invoices, and proposes such a description when
// asked; the loop must find it, score it on the held-out queries and leave the skill's file untouched.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAiCompatibleProvider } from "../agent/ai-providers";
import { makeAgentWorld, scriptedOpenAiServer, type AgentWorld, type ChatRequestBody, type ScriptedServer } from "../agent/test-support/agent";
import { cleanProposal, splitCases, suggestDescription } from "./suggest";

let world: AgentWorld;
let server: ScriptedServer;
let pdfDir: string;
const BETTER = "Fill PDF forms and merge scanned invoices into one PDF. Use for PDF forms or invoices.";

const lastUser = (b: ChatRequestBody) => String([...b.messages].reverse().find((m) => m.role === "user")?.content ?? "");

beforeAll(async () => {
  world = makeAgentWorld();
  pdfDir = world.skill("pdf-forms", { description: "Fill PDF forms field by field. Use when someone has a PDF form.", body: "# PDF\n" });
  world.skill("weather-report", { description: "Fetch the weather forecast for a city.", body: "# Weather\n" });
  server = await scriptedOpenAiServer((body) => {
    const all = JSON.stringify(body);
    if (all.includes("You improve the descriptions")) return { content: `Here you go:\n<description>${BETTER}</description>` };
    const request = lastUser(body).toLowerCase();
    const knowsInvoices = all.includes("merge scanned invoices");
    if (request.includes("pdf form") || (request.includes("invoice") && knowsInvoices)) return { toolCalls: [{ name: "skill", arguments: { name: "pdf-forms" } }] };
    return { content: "No skill needed." };
  });
});
afterAll(async () => {
  await server.close();
  world.cleanup();
});

describe("suggestDescription", () => {
  it("proposes a description that fixes the held-out queries, with before/after scores, and writes nothing", async () => {
    const provider = openAiCompatibleProvider({ OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "k", OMNIFORGE_MODEL: "gpt-test" });
    const before = fs.readFileSync(path.join(pdfDir, "SKILL.md"), "utf8");
    const cases = [
      { query: "fill this PDF form for me", should_trigger: true },
      { query: "merge the scanned invoices", should_trigger: true },
      { query: "combine these invoice scans", should_trigger: true },
      { query: "complete the PDF form fields", should_trigger: true },
      { query: "put every invoice into one file", should_trigger: true },
      { query: "weather in Oslo", should_trigger: false },
      { query: "tell me a joke", should_trigger: false },
      { query: "what time is it", should_trigger: false },
      { query: "weather tomorrow", should_trigger: false },
      { query: "translate hello", should_trigger: false },
    ];
    const s = await suggestDescription({ skill: "pdf-forms", cases, skills: { index: world.index() }, provider, mode: "tool", iterations: 2, scratchDir: world.scratch });
    expect(s.split).toEqual({ train: 6, test: 4 });
    expect(s.before).toMatchObject({ description: "Fill PDF forms field by field. Use when someone has a PDF form.", test: 0.75, iteration: 0 });
    expect(s.best).toMatchObject({ description: BETTER, test: 1, train: 1, iteration: 1 });
    expect(s.unchanged).toBe(false);
    // 3 runs per query (a model provider's default) for each of the two candidates scored, plus one proposal call.
    expect(server.requests.length).toBeGreaterThanOrEqual(2 * 10 * 3);
    expect(fs.readFileSync(path.join(pdfDir, "SKILL.md"), "utf8")).toBe(before);
  });

  it("splits 60/40 within each kind, and cleans a proposal or refuses it", () => {
    const cases = Array.from({ length: 10 }, (_, i) => ({ query: `q${i}`, should_trigger: i < 5 }));
    const { train, test } = splitCases(cases);
    expect(test.map((c) => c.query)).toEqual(["q1", "q3", "q6", "q8"]);
    expect(train).toHaveLength(6);
    expect(cleanProposal('Description: "Fill PDF forms."')).toBe("Fill PDF forms.");
    expect(cleanProposal("<description>\n Fill\n PDF forms. \n</description>")).toBe("Fill PDF forms.");
    expect(cleanProposal("x".repeat(1025))).toBeNull();
    expect(cleanProposal("<b>bold</b>")).toBeNull();
  });
});
