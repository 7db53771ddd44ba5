import { describe, expect, it } from "vitest";
import { nameProblems, validNameFrom } from "./name-rule";

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
