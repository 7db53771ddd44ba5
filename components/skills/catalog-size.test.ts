import { describe, expect, it } from "vitest";
import { catalogSize, definitionsNote } from "./catalog-size";

describe("catalog size", () => {
  it("counts names as skills and mentions definitions only when there are more", () => {
    expect(catalogSize(6, 8)).toBe("6 skills (8 definitions across the layers)");
    expect(catalogSize(1, 1)).toBe("1 skill");
    expect(definitionsNote(3, 3)).toBe("");
    expect(definitionsNote(3, 4)).toBe("(4 definitions across the layers)");
  });
});
