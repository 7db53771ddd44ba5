import { describe, expect, it } from "vitest";
import { SkillSearch, TUNING } from "./engine";
import { expand } from "./synonyms";
import { terms } from "./text";
import { VOCABULARY } from "./vocabulary";

const skill = (name: string, description: string) => ({ id: name, name, description, nameText: name.replace(/-/g, " "), headings: "", tags: "", body: "" });
const equivalents = (request: string) => new Map(expand(terms(request)).map((x) => [x.term, x]));

describe("the broader vocabulary", () => {
  it("holds only members the search can match: one word, or two adjacent ones, and a single word in every group", () => {
    // Phrases are looked up as adjacent pairs of the request's terms: a member read as three terms (or none: all stop
    // words) would never match, and a group of phrases only has no word to expand to.
    for (const group of VOCABULARY) {
      const members = group.filter((w) => w !== "=" && w !== "~");
      for (const w of members) expect([1, 2], `'${w}' is read as ${JSON.stringify(terms(w))}`).toContain(terms(w).length);
      expect(members.some((w) => terms(w).length === 1), group.join(", ")).toBe(true);
    }
    expect(VOCABULARY.length).toBeGreaterThanOrEqual(100);
  });

  it("reads a person's words as the ones skills use, phrases included, marked as the broader vocabulary's", () => {
    expect(equivalents("go through the review remarks on my pull request").get("comment")).toMatchObject({ from: "remark", broad: true, strength: 1 });
    expect(equivalents("tidy it up so it reads clearly").has(terms("simplify")[0]!)).toBe(true);
    // "cheat sheet" is two words in the request, one concept: it finds a tldr page, and "cheat" alone does not.
    expect(equivalents("a cheat sheet for ripgrep").get("tldr")).toMatchObject({ from: "cheat sheet", broad: true, strength: 2 });
    expect(equivalents("cheat at chess").has("tldr")).toBe(false);
    expect(equivalents("before I tell my boss it's fixed I want proof").get(terms("evidence")[0]!)?.broad).toBe(true);
  });

  it("leaves a pair the core groups join at the core strength", () => {
    // mockup ~ wireframe is in a core group (design) and in the vocabulary's (prototype): the core reading counts.
    expect(equivalents("a mockup of the settings screen").get(terms("wireframe")[0]!)).toMatchObject({ broad: false });
    expect(equivalents("an xlsx of the results").get(terms("spreadsheet")[0]!)).toMatchObject({ broad: false, strength: 2 });
  });

  it("ranks the skill described in the catalog's words first for a request in everyday words, and TUNING.vocabulary 0 switches it off", () => {
    const s = new SkillSearch();
    s.upsert(skill("code-simplifier", "Simplify and clean up a script for readability while preserving behavior"));
    s.upsert(skill("script-runner", "Run a script on a schedule and keep its output"));
    s.upsert(skill("chess-coach", "Play chess and review your games move by move"));
    const request = "this script got convoluted, tidy it";
    const on = s.search(request);
    expect(on.hits[0]!.name).toBe("code-simplifier");
    expect(on.hits[0]!.why).toMatch(/'tidy' \(as '(simplify|clean up)'/);
    const saved = TUNING.vocabulary;
    TUNING.vocabulary = 0;
    try {
      expect(s.search(request).hits[0]!.name).toBe("script-runner");
    } finally {
      TUNING.vocabulary = saved;
    }
  });
});
