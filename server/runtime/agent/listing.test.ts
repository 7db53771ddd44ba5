import { describe, expect, it } from "vitest";
import { buildListing, listingBudgetFor, type ListingSkill } from "./listing";

const long = (topic: string) =>
  `Handles ${topic} work end to end: prepares inputs, checks them against the team's rules, produces the result and explains every step it took. Use when the user asks about ${topic}.`;

function skills(n: number): ListingSkill[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `skill-${String(i).padStart(2, "0")}`,
    description: long(`topic${i}`),
    location: `/layers/project/skill-${i}/SKILL.md`,
  }));
}

describe("listing budget", () => {
  it("defaults to 1% of the context window in characters (4 chars per token)", () => {
    expect(listingBudgetFor(200_000)).toBe(8_000);
    expect(listingBudgetFor(128_000)).toBe(5_120);
  });

  it("lists every skill in full when the budget allows, with no note", () => {
    const l = buildListing(skills(3), { mode: "tool", budgetChars: 8000 });
    expect(l.listed).toBe(3);
    expect(l.shortened + l.omitted).toBe(0);
    expect(l.text).toContain(`"skill-01": ${long("topic1")}`);
    expect(l.text).not.toMatch(/shortened|left out/);
    expect(l.chars).toBe(l.text.length);
  });

  it("shortens descriptions before dropping any skill, and says how many", () => {
    const all = skills(20);
    const full = buildListing(all, { mode: "tool", budgetChars: 1_000_000 });
    const budget = Math.floor(full.chars * 0.6);
    const l = buildListing(all, { mode: "tool", budgetChars: budget });
    expect(l.chars).toBeLessThanOrEqual(budget);
    expect(l.omitted).toBe(0);
    expect(l.listed).toBe(20);
    expect(l.shortened).toBeGreaterThan(0);
    expect(l.text).toContain(`(${l.shortened} descriptions were shortened to fit the listing budget of ${budget} characters.)`);
    expect(l.text).toContain("…");
  });

  it("drops skills only when every description is already at its shortest, and says how many were left out", () => {
    const l = buildListing(skills(40), { mode: "prompt", budgetChars: 2000 });
    expect(l.chars).toBeLessThanOrEqual(2000);
    expect(l.omitted).toBeGreaterThan(0);
    expect(l.listed + l.omitted).toBe(40);
    expect(l.omittedNames).toHaveLength(l.omitted);
    // Every listed description is at the minimum length (40 chars) before the first skill went.
    for (const m of l.text.matchAll(/<description>(.*?)<\/description>/g)) expect(m[1]!.length).toBeLessThanOrEqual(40);
    expect(l.text).toMatch(new RegExp(`${l.omitted} skills were left out to fit the listing budget of 2000 characters`));
  });

  it("shortens and drops the least relevant skills first when the request is known", () => {
    const all = skills(30);
    all.push({ name: "pdf-forms", description: long("PDF form filling"), location: "/p/pdf-forms/SKILL.md" });
    const l = buildListing(all, { mode: "tool", budgetChars: 1500, request: "fill the PDF form for me" });
    expect(l.omitted).toBeGreaterThan(0);
    expect(l.omittedNames).not.toContain("pdf-forms");
    // The relevant one keeps the longest description of all.
    expect(l.text).toMatch(/"pdf-forms": Handles PDF form filling work/);
  });

  it("prompt mode carries each SKILL.md location; orchestrated mode does not", () => {
    const s = [{ name: "a-b", description: "Does <a> & b.", location: "/x/a-b/SKILL.md" }];
    const p = buildListing(s, { mode: "prompt", budgetChars: 8000 });
    expect(p.text).toBe("<available_skills>\n<skill>\n<name>a-b</name>\n<description>Does &lt;a&gt; &amp; b.</description>\n<location>/x/a-b/SKILL.md</location>\n</skill>\n</available_skills>");
    const o = buildListing(s, { mode: "orchestrated", budgetChars: 8000 });
    expect(o.text).not.toContain("<location>");
    expect(o.text).toContain("<name>a-b</name>");
  });
});

describe("listing at scale", () => {
  it("fits 5,000 skills into the default budget quickly, and the counted length is the real length", () => {
    const many = skills(5000);
    const started = performance.now();
    const l = buildListing(many, { mode: "tool", budgetChars: listingBudgetFor(200_000), request: "topic42 please" });
    const ms = performance.now() - started;
    expect(l.chars).toBe(l.text.length);
    expect(l.chars).toBeLessThanOrEqual(8000);
    expect(l.listed + l.omitted).toBe(5000);
    expect(l.omittedNames).not.toContain("skill-42");
    expect(ms).toBeLessThan(3000);
  });
});
