import { describe, expect, it } from "vitest";
import { parseAllowedTools, splitPatterns } from "./allowed-tools";

describe("parseAllowedTools", () => {
  it("splits on spaces and commas outside parentheses", () => {
    expect(parseAllowedTools("Bash(git status:*) Read, Write")).toEqual(["Bash(git status:*)", "Read", "Write"]);
    expect(parseAllowedTools("Bash(npm run *) mcp__github__search WebFetch(domain:example.com)")).toEqual([
      "Bash(npm run *)",
      "mcp__github__search",
      "WebFetch(domain:example.com)",
    ]);
    expect(parseAllowedTools("  Read,,Write\n\tGlob ")).toEqual(["Read", "Write", "Glob"]);
    expect(parseAllowedTools("Bash(a, b (c d)) Read")).toEqual(["Bash(a, b (c d))", "Read"]);
  });

  it("takes list items as whole patterns and drops non-strings", () => {
    expect(parseAllowedTools(["Read", " Bash(git log:*) ", 3, "", null])).toEqual(["Read", "Bash(git log:*)"]);
  });

  it("returns [] for empty or unusable values", () => {
    expect(parseAllowedTools("")).toEqual([]);
    expect(parseAllowedTools(undefined)).toEqual([]);
    expect(parseAllowedTools({ Read: true })).toEqual([]);
  });

  it("reports unbalanced parentheses", () => {
    expect(splitPatterns("Bash(git:* Read").balanced).toBe(false);
    expect(splitPatterns("Read) Write").balanced).toBe(false);
    expect(splitPatterns("Bash(git:*) Read").balanced).toBe(true);
  });
});
