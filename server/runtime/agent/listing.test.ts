import { describe, expect, it } from "vitest";
import { buildListing, listingBudgetFor, rankByText, SEARCH_TOOL, type ListingSkill } from "./listing";
import { DISCLOSURE_MODES } from "./types";

const long = (topic: string) =>
  `Handles ${topic} work end to end: prepares inputs, checks them against the team's rules, produces the result and explains every step it took. Use when the user asks about ${topic}.`;

function skills(n: number): ListingSkill[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `skill-${String(i).padStart(2, "0")}`,
    description: long(`topic${i}`),
    location: `/layers/project/skill-${i}/SKILL.md`,
  }));
}

/** The count the closing line states ("4,868 more skills are not listed", grouped as every count), or null when there is none. */
const statedOmitted = (text: string) => {
  const m = /([\d,]+) more skills? (?:is|are) not listed/.exec(text);
  return m ? Number(m[1]!.replaceAll(",", "")) : text.includes("not listed") ? NaN : null;
};

describe("listing budget", () => {
  it("defaults to 1% of the context window in characters (4 chars per token)", () => {
    expect(listingBudgetFor(200_000)).toBe(8_000);
    expect(listingBudgetFor(128_000)).toBe(5_120);
  });

  it("lists every skill in full when the budget allows, with no note", () => {
    const l = buildListing(skills(3), { mode: "tool", budgetChars: 8000 });
    expect(l.listed).toBe(3);
    expect(l.strategy).toBe("all");
    expect(l.shortened + l.omitted).toBe(0);
    expect(l.text).toContain(`"skill-01": ${long("topic1")}`);
    expect(l.text).not.toMatch(/shortened|not listed/);
    expect(l.chars).toBe(l.text.length);
    expect(l.why).toMatch(/All 3 skills fit/);
  });

  it("keeps the whole catalog when shortening descriptions is enough, least relevant first, and says how many", () => {
    const all = skills(20);
    all.push({ name: "pdf-forms", description: long("PDF form filling"), location: "/p/pdf-forms/SKILL.md" });
    const full = buildListing(all, { mode: "tool", budgetChars: 1_000_000 });
    const budget = Math.floor(full.chars * 0.8);
    const l = buildListing(all, { mode: "tool", budgetChars: budget, request: "fill the PDF form for me" });
    expect(l.strategy).toBe("all");
    expect(l.chars).toBeLessThanOrEqual(budget);
    expect(l.omitted).toBe(0);
    expect(l.listed).toBe(21);
    expect(l.shortened).toBeGreaterThan(0);
    expect(l.shortenedNames).not.toContain("pdf-forms");
    expect(l.text).toContain(`"pdf-forms": ${long("PDF form filling")}`);
    expect(l.text).toContain(`(${l.shortened} descriptions were shortened to fit the listing budget of ${budget} characters.)`);
    expect(l.text).toContain("…");
  });

  it("ranks for the request when the catalog does not fit: the best first with descriptions, then names, then the closing line", () => {
    const all = skills(140);
    all.push({ name: "pdf-forms", description: long("PDF form filling"), location: "/p/pdf-forms/SKILL.md" });
    const l = buildListing(all, { mode: "tool", budgetChars: 1500, request: "fill the PDF form for me" });
    expect(l.strategy).toBe("ranked");
    expect(l.chars).toBeLessThanOrEqual(1500);
    expect(l.described[0]).toBe("pdf-forms");
    expect(l.text.indexOf('"pdf-forms": Handles PDF form filling')).toBe("<available_skills>\n".length);
    expect(l.listed).toBe(l.described.length + l.nameOnly.length);
    expect(l.listed + l.omitted).toBe(141);
    expect(l.omitted).toBeGreaterThan(0);
    expect(l.omittedNames).toHaveLength(l.omitted);
    expect(statedOmitted(l.text)).toBe(l.omitted);
    expect(l.text).toContain(`call skill_search with what you need`);
    for (const n of l.nameOnly) expect(l.text).toContain(`"${n}"\n`);
    expect(l.why).toMatch(/ranked for the request/);
  });

  it("names the search tool of each mode in the closing line", () => {
    for (const mode of DISCLOSURE_MODES) {
      const l = buildListing(skills(60), { mode, budgetChars: 2000, request: "topic7" });
      expect(l.strategy).toBe("ranked");
      expect(l.text).toContain(`call ${SEARCH_TOOL[mode]} with what you need`);
      expect(l.described[0]).toBe("skill-07");
    }
    expect(SEARCH_TOOL.orchestrated).toBe("skills.search");
  });

  it("is always within budget, never drops the top-ranked, and its closing line counts exactly what is left out", () => {
    const all = skills(120);
    // A very long description for the best match: it is shortened, never dropped.
    all.push({ name: "zz-target", description: `Zebra crossing audits. ${"Many words about details. ".repeat(60)}`, location: "/p/zz-target/SKILL.md" });
    for (const mode of DISCLOSURE_MODES) {
      for (let budget = 400; budget <= 30_000; budget = Math.round(budget * 1.37)) {
        const l = buildListing(all, { mode, budgetChars: budget, request: "zebra crossing audit" });
        expect(l.chars, `${mode} @ ${budget}`).toBeLessThanOrEqual(budget);
        expect(l.chars).toBe(l.text.length);
        expect(l.listed + l.omitted).toBe(all.length);
        if (l.strategy === "ranked") {
          expect(l.described[0], `${mode} @ ${budget}`).toBe("zz-target");
          expect(l.text).toContain("Zebra crossing");
          expect(statedOmitted(l.text) ?? 0).toBe(l.omitted);
        } else expect(l.omitted).toBe(0);
      }
    }
  });

  it("lists names only (and says so) when nothing matches the request", () => {
    const l = buildListing(skills(80), { mode: "tool", budgetChars: 1200, request: "qwertyuiop" });
    expect(l.strategy).toBe("ranked");
    expect(l.described).toEqual([]);
    expect(l.nameOnly.length).toBeGreaterThan(0);
    expect(l.text).toContain("(Skills listed by name only.");
    expect(l.chars).toBeLessThanOrEqual(1200);
  });

  it("follows a given ranking (the caller's one ranking over bodies too) over the text of the listing", () => {
    const l = buildListing(skills(50), { mode: "orchestrated", budgetChars: 1500, ranking: ["skill-33", "skill-04"] });
    expect(l.described.slice(0, 2)).toEqual(["skill-33", "skill-04"]);
    expect(l.text.indexOf("<name>skill-33</name>")).toBeLessThan(l.text.indexOf("<name>skill-04</name>"));
  });

  it("prompt mode carries each SKILL.md location; orchestrated mode does not", () => {
    const s = [{ name: "a-b", description: "Does <a> & b.", location: "/x/a-b/SKILL.md" }];
    const p = buildListing(s, { mode: "prompt", budgetChars: 8000 });
    expect(p.text).toBe("<available_skills>\n<skill>\n<name>a-b</name>\n<description>Does &lt;a&gt; &amp; b.</description>\n<location>/x/a-b/SKILL.md</location>\n</skill>\n</available_skills>");
    const o = buildListing(s, { mode: "orchestrated", budgetChars: 8000 });
    expect(o.text).not.toContain("<location>");
    expect(o.text).toContain("<name>a-b</name>");
    const r = buildListing([...s, ...skills(60)], { mode: "prompt", budgetChars: 2000, request: "does a b" });
    expect(r.text).toMatch(/<skill>\n<name>skill-\d+<\/name>\n<location>\/layers\/project\/skill-\d+\/SKILL\.md<\/location>\n<\/skill>/);
  });
});

describe("listing at scale", () => {
  it("fits 5,000 skills into the default budget, the counted length is the real length, the relevant one is described", () => {
    const many = skills(5000);
    const l = buildListing(many, { mode: "tool", budgetChars: listingBudgetFor(200_000), request: "topic42 please" });
    expect(l.chars).toBe(l.text.length);
    expect(l.chars).toBeLessThanOrEqual(8000);
    expect(l.listed + l.omitted).toBe(5000);
    expect(l.described[0]).toBe("skill-42");
    expect(statedOmitted(l.text)).toBe(l.omitted);
  });
});

describe("tags in the listing (#14 §4)", () => {
  const tagged = (): ListingSkill[] => [
    { name: "pdf-forms", description: "Fill PDF forms. Use when a form must be completed.", location: "/p/pdf-forms/SKILL.md", tags: ["documents", "paperwork"] },
    { name: "csv-insights", description: "Summarise CSV files. Use when a table needs numbers.", location: "/p/csv/SKILL.md" },
  ];

  it("shows each skill's tags in every mode when the whole catalog fits with them", () => {
    expect(buildListing(tagged(), { mode: "tool", budgetChars: 8000 }).text).toContain('"pdf-forms": Fill PDF forms. Use when a form must be completed. [tags: documents, paperwork]');
    for (const mode of ["prompt", "orchestrated"] as const) {
      const l = buildListing(tagged(), { mode, budgetChars: 8000 });
      expect(l.text).toContain("<tags>documents, paperwork</tags>");
      expect(l.why).toMatch(/full descriptions and tags/);
      expect(l.chars).toBeLessThanOrEqual(8000);
    }
  });

  it("drops the tags, never a description's words, when they do not fit", () => {
    const without = buildListing(tagged().map(({ tags: _t, ...s }) => s), { mode: "tool", budgetChars: 8000 }).chars;
    const l = buildListing(tagged(), { mode: "tool", budgetChars: without + 5 });
    expect(l.text).not.toContain("tags");
    expect(l.shortened).toBe(0);
  });

  it("ranks by a tag the request names", () => {
    const l = buildListing(tagged(), { mode: "tool", budgetChars: 8000, request: "help with my paperwork" });
    expect(l.text.indexOf("pdf-forms")).toBeGreaterThan(0);
    expect(rankByText(tagged(), "help with my paperwork")[0]).toBe("pdf-forms");
  });
});
