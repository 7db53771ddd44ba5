import { describe, expect, it } from "vitest";
import { asciiNameFrom, nameProblems, validNameFrom } from "./name-rule";

describe("nameProblems", () => {
  it("accepts a valid name and explains each broken rule with a valid suggestion", () => {
    expect(nameProblems("pdf-forms")).toEqual([]);
    expect(nameProblems("Good_One").map((p) => p.message)).toEqual([
      'name "Good_One" must be lowercase: use "good-one".',
      'name "Good_One" may only contain letters, digits and hyphens: try "good-one".',
    ]);
    expect(nameProblems("a--b").map((p) => p.code)).toEqual(["name.hyphen-consecutive"]);
    expect(nameProblems("").map((p) => p.code)).toEqual(["name.empty"]);
    expect(validNameFrom("  My PDF Tool! ")).toBe("my-pdf-tool");
  });
});

describe("asciiNameFrom", () => {
  it("drops accents and turns everything else outside a-z and 0-9 into single hyphens", () => {
    expect(asciiNameFrom("Émoji🚀")).toBe("emoji");
    expect(asciiNameFrom("Crème Brûlée")).toBe("creme-brulee");
    expect(asciiNameFrom("ملاحظات")).toBe("");
    // Asked for ASCII, the validator's own suggestions are ASCII; by default they keep the spec's letters.
    expect(nameProblems("Émoji", { ascii: true }).map((p) => p.message)).toEqual(['name "Émoji" must be lowercase: use "emoji".']);
    expect(nameProblems("Émoji").map((p) => p.message)).toEqual(['name "Émoji" must be lowercase: use "émoji".']);
  });
});
