import { describe, expect, it } from "vitest";
import { abstainReason, minConfidence, SIGNALS, signalsOf, type AbstentionInput, type AbstentionModel } from "./abstention";
import { SkillSearch } from "./engine";

const search = SkillSearch.fromText([
  { name: "pdf-form-filler", description: "Fill in PDF forms: text fields, checkboxes and signatures." },
  { name: "xlsx-pivot", description: "Build pivot tables and charts in Excel workbooks." },
  { name: "commit-writer", description: "Write git commit messages from a staged diff." },
  { name: "chart-maker", description: "Draw bar and line charts from a table of numbers." },
]);

/** What the engine hands the decision for `request` (the search answers whatever the decision says). */
function inputOf(request: string): AbstentionInput {
  let seen: AbstentionInput | undefined;
  search.search(request, { decide: (x) => ((seen = x), undefined) });
  return seen!;
}

describe("the abstention decision", () => {
  it("gets from the engine where the best hit holds each request word, and the next hit", () => {
    const x = inputOf("fill the checkboxes of this pdf form and email it to finance");
    expect(x.best).toBe("pdf-form-filler");
    expect(x.searched).toBe(4);
    expect(x.score).toBeGreaterThan(x.nextScore);
    // fill, checkbox, pdf, form in its description; email and finance in no skill's text.
    expect(x.words.filter((w) => w.found === "summary")).toHaveLength(4);
    expect(x.words.filter((w) => w.df === 0 && w.found === "none")).toHaveLength(2);
    const s = signalsOf(x);
    expect(s.summaryWords).toBe(4);
    expect(s.bodyOnly).toBe(0);
    expect(s.lacking).toBe(0);
    expect(s.unknown).toBeGreaterThan(0.2);
    expect(s.unknown).toBeLessThan(0.5);
    expect(s.margin).toBeGreaterThan(0.5);
  });

  it("counts a word other skills have but the best hit lacks as lacking", () => {
    const s = signalsOf(inputOf("a pdf form with a pivot table inside"));
    expect(s.lacking).toBeGreaterThan(0);
  });

  it("decides by confidence alone when no model is committed, with the reason it gives", () => {
    const x = inputOf("turn this pdf into a podcast episode with background music and chapters");
    expect(x.confidence).toBeLessThan(minConfidence(4));
    expect(abstainReason(x)).toBe(
      `the best match, 'pdf-form-filler', carries only ${Math.round(x.confidence * 100)}% of the request's distinctive words (at least ${Math.round(minConfidence(4) * 100)}% needed among 4 skills)`,
    );
    expect(search.search("turn this pdf into a podcast episode with background music and chapters").abstain).toBe(true);
    expect(abstainReason(inputOf("fill the checkboxes of this pdf form"))).toBeUndefined();
  });

  it("a model abstains by its weighted signals and says which signal decided", () => {
    const model: AbstentionModel = { signals: ["confidence", "margin"], mean: [0.5, 0.5], scale: [0.25, 0.25], weights: [0.1, 2], bias: 0, cut: 0, cutPerLog: 0 };
    const clear = inputOf("fill the checkboxes of this pdf form");
    // The same best hit with a runner-up just behind it.
    const x = { ...clear, next: "pdf-merger", nextScore: clear.score * 0.95 };
    expect(signalsOf(x).margin).toBeCloseTo(0.05);
    expect(abstainReason(x, model)).toBe("the best match, 'pdf-form-filler', is hardly ahead of the next one, 'pdf-merger'");
    expect(abstainReason(inputOf("fill the checkboxes of this pdf form"), model)).toBeUndefined();
    // The cut rises with the catalog: the same request among far more skills would need more.
    expect(abstainReason(inputOf("fill the checkboxes of this pdf form"), { ...model, cutPerLog: 5 })).toMatch(/^the best match, 'pdf-form-filler', /);
  });

  it("the common-words rule holds whatever the model says", () => {
    const x = { ...inputOf("fill the checkboxes of this pdf form"), evidence: 0.1 };
    const lenient: AbstentionModel = { signals: ["confidence"], mean: [0], scale: [1], weights: [1], bias: 100, cut: 0, cutPerLog: 0 };
    expect(abstainReason(x, lenient)).toBe("the best match, 'pdf-form-filler', shares only common words with the request");
  });

  it("every signal is a finite number, also for a best hit with no score and a request of no words", () => {
    const bare: AbstentionInput = { searched: 0, best: "x", confidence: 0, evidence: 0, score: 0, nextScore: 0, words: [] };
    const s = signalsOf(bare);
    for (const name of SIGNALS) expect(Number.isFinite(s[name]), name).toBe(true);
    expect(abstainReason(bare)).toMatch(/carries only 0%/);
  });
});
