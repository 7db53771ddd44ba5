import { describe, expect, it } from "vitest";
import { composeDescription } from "./guided-description";

describe("composeDescription", () => {
  it("joins what the skill does and when to use it into the sentence shape agents route by", () => {
    expect(composeDescription("Fills PDF forms", "the user asks to complete a PDF")).toBe("Fills PDF forms. Use when the user asks to complete a PDF.");
    expect(composeDescription("Fills PDF forms.", "Use when a form is attached")).toBe("Fills PDF forms. Use when a form is attached.");
    expect(composeDescription("  Fills   forms ", "")).toBe("Fills forms.");
    expect(composeDescription("", "")).toBe("");
  });
});
