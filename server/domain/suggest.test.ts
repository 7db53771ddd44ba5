import { describe, expect, it } from "vitest";
import { editDistance, nearest } from "./suggest";

describe("did you mean", () => {
  it("counts a swap of neighbours as one edit", () => {
    expect(editDistance("sycn", "sync")).toBe(1);
    expect(editDistance("skil", "skill")).toBe(1);
    expect(editDistance("validate", "frobnicate")).toBeGreaterThan(3);
  });

  it("suggests the near one, and nothing for a word far from all or equally near two", () => {
    const commands = ["skill list", "skill search", "skill validate", "sync", "init"];
    expect(nearest("skil list", commands)).toBe("skill list");
    expect(nearest("skill lst", commands)).toBe("skill list");
    expect(nearest("Sync", commands)).toBe("sync");
    expect(nearest("skill frobnicate", commands)).toBeNull();
    expect(nearest("ab", ["ac", "ad"])).toBeNull();
  });
});
