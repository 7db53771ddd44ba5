// Token estimates: what a person reads as "~N tokens", in bounded time whatever the text.
import { describe, expect, it } from "vitest";
import { estimateTokens } from "./tokens";

describe("estimateTokens", () => {
  it("counts ordinary text as the o200k encoding does", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("Fill in the fields of a PDF form.")).toBe(9);
    const prose = "Use when the user asks to fill a PDF form or list its fields. ".repeat(40);
    expect(estimateTokens(prose)).toBeGreaterThan(400);
  });

  it("a long run without whitespace (a model's base64 argument) is estimated in bounded time, at about the same count", () => {
    const small = "QUJD".repeat(500); // 2,000 characters: counted whole before, in pieces now
    const direct = estimateTokens(small.slice(0, 256)) * 8;
    expect(Math.abs(estimateTokens(small) - direct) / direct).toBeLessThan(0.1);
    const t = performance.now();
    const n = estimateTokens("A".repeat(400_000));
    expect(performance.now() - t).toBeLessThan(3_000);
    expect(n).toBeGreaterThan(400_000 / 64);
  });
});
