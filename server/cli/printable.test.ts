import { describe, expect, it } from "vitest";
import { formatEvent } from "./commands/agent-run";
import { printable, printableLines } from "./printable";

describe("printable", () => {
  it("writes terminal control characters out as \\uXXXX and leaves other text as it is", () => {
    expect(printable("\u001b[2Jcleared")).toBe("\\u001b[2Jcleared");
    expect(printable("a\nb\tc\rd\u0000e\u007ff\u0085g\u009bh")).toBe("a\\u000ab\\u0009c\\u000dd\\u0000e\\u007ff\\u0085g\\u009bh");
    expect(printable("x\u2028y\u2029z")).toBe("x\\u2028y\\u2029z");
    expect(printable("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")).toBe("\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069");
    expect(printable("café ☕ 日本 C:\\dir \u00a0")).toBe("café ☕ 日本 C:\\dir \u00a0");
  });

  it("printableLines keeps the lines and tabs of a text of several lines, and writes out the rest", () => {
    expect(printableLines("one\n\ttwo\r\n\u001b]0;T\u0007\u202e")).toBe("one\n\ttwo\\u000d\n\\u001b]0;T\\u0007\\u202e");
  });

  it("a model's answer and a tool's output reach the terminal inert (agent run's lines)", () => {
    const answer = formatEvent({ type: "message", depth: 0, text: "hi\u001b]0;PWNED\u0007\u001b[2J\nFAKE" } as Parameters<typeof formatEvent>[0])!;
    expect(answer).not.toMatch(/[\u001b\u0007]/);
    expect(answer).toContain("hi\\u001b]0;PWNED\\u0007\\u001b[2J\nFAKE");
  });
});
