// "Suggest a better description" with no model (#41 item 10): the failing queries' words that the skill's text
// supports are proposed, judged by the same runs as a model's proposal (the offline provider picks the one
// ranking's first), and each failing query's place in the ranking is shown before and after.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OfflineProvider } from "../agent/offline";
import { makeAgentWorld, type AgentWorld } from "../agent/test-support/agent";
import { MAX_ADDED_WORDS, wordsProposal } from "./offline-proposal";
import { suggestDescription } from "./suggest";

let world: AgentWorld;
let pdfDir: string;
beforeAll(() => {
  world = makeAgentWorld();
  pdfDir = world.skill("pdf-forms", {
    description: "Fill PDF forms field by field. Use when someone has a PDF form.",
    body: "# PDF\n\nIt also merges scanned invoices into one PDF, and combines invoice scans.\n",
  });
  world.skill("weather-report", { description: "Fetch the weather forecast for a city.", body: "# Weather\n" });
  world.skill("joke-teller", { description: "Tell a short joke on request.", body: "# Jokes\n" });
});
afterAll(() => world.cleanup());

const cases = [
  ["fill this PDF form for me", true],
  ["merge the scanned invoices", true],
  ["combine these invoice scans", true],
  ["complete the PDF form fields", true],
  ["put every invoice into one file", true],
  ["weather in Oslo", false],
  ["tell me a joke", false],
  ["what time is it", false],
  ["weather tomorrow", false],
  ["translate hello", false],
].map(([query, should_trigger]) => ({ query: query as string, should_trigger: should_trigger as boolean }));

describe("offline description proposals", () => {
  it("add the failing queries' words the skill's text supports, most used first; the others are listed for a person to judge", () => {
    const p = wordsProposal("Fill PDF forms.", "pdf forms invoices scanned merge", ["merge my scanned invoice", "merge two invoices", "put it in a file"]);
    expect(p.added).toEqual(["merge", "invoice", "scanned"]);
    expect(p.description).toBe("Fill PDF forms. Also for requests about merge, invoice and scanned.");
    expect(p.unsupported).toEqual(["two", "put", "file"]);
    // Nothing the text supports and the description lacks: no proposal.
    expect(wordsProposal("Fill PDF forms.", "pdf forms", ["fill the pdf forms"]).description).toBeNull();
  });

  it("reads 100x the failing queries once and keeps to a sentence within the format's limit", () => {
    const many = Array.from({ length: 5000 }, (_, i) => `merge invoice${i % 700} scanned w${i}`);
    const text = Array.from({ length: 700 }, (_, i) => `invoice${i}`).join(" ") + " merge scanned";
    const p = wordsProposal("Fill PDF forms.", text, many);
    expect(p.added).toHaveLength(MAX_ADDED_WORDS);
    expect(p.added.slice(0, 2)).toEqual(["merge", "scanned"]);
    expect(p.description!.length).toBeLessThanOrEqual(1024);
    expect(p.unsupported).toHaveLength(5000);
  });

  it("through the trigger runs: the offline proposal ranks the skill first for the query it missed, the file is untouched", async () => {
    const before = fs.readFileSync(path.join(pdfDir, "SKILL.md"), "utf8");
    const s = await suggestDescription({ skill: "pdf-forms", cases, skills: { index: world.index() }, provider: new OfflineProvider(), mode: "tool", scratchDir: world.scratch });
    expect(s.proposedBy).toBe("words");
    expect(s.unchanged).toBe(false);
    // Which of the queries the ranking misses (and so which words are added) moves with the ranking's weights; what
    // holds is the shape: the words the skill's text supports are added to its description, the others named.
    expect(s.best.description).toMatch(/^Fill PDF forms field by field\. Use when someone has a PDF form\. Also for requests about .*\binvoice\b.*\.$/);
    expect(s.best.train).toBeGreaterThan(s.before.train);
    expect(s.words?.added).toContain("invoice");
    expect(s.words?.unsupported).toEqual(expect.arrayContaining(["put", "file"]));
    expect(s.rankings).toContainEqual({ query: "put every invoice into one file", should_trigger: true, before: expect.objectContaining({ chosen: false }), after: expect.objectContaining({ place: 1, chosen: true }) });
    for (const r of s.rankings) expect(r.after, r.query).toMatchObject({ place: 1, chosen: true });
    expect(fs.readFileSync(path.join(pdfDir, "SKILL.md"), "utf8")).toBe(before);
  });
});
