import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { parseAllowedTools, splitPatterns } from "./allowed-tools";

/** The allowed-tools value of a frontmatter snippet, read with the real YAML parser. */
const field = (yamlText: string): unknown => (parseYaml(yamlText) as Record<string, unknown>)["allowed-tools"];

// Every form Claude Code accepts (and real public skills write), as frontmatter, and the patterns it means.
const FORMS: [string, string, string[]][] = [
  ["one pattern with a space-separated prefix", 'allowed-tools: "Bash(git add *)"\n', ["Bash(git add *)"]],
  ["one pattern with a colon prefix", 'allowed-tools: "Bash(git:*)"\n', ["Bash(git:*)"]],
  ["a space list (K-Dense skills)", "allowed-tools: Read Write Edit Bash\n", ["Read", "Write", "Edit", "Bash"]],
  ["a comma list (getsentry skills)", "allowed-tools: Read, Grep, Glob, Bash, Task\n", ["Read", "Grep", "Glob", "Bash", "Task"]],
  [
    "patterns with spaces and commas inside parentheses, mixed separators",
    'allowed-tools: "Bash(git add:*) Bash(python scripts/*), Read,Bash(a, b (c d))"\n',
    ["Bash(git add:*)", "Bash(python scripts/*)", "Read", "Bash(a, b (c d))"],
  ],
  ["MCP names and argument patterns", "allowed-tools: Bash(npm run *) mcp__github__search WebFetch(domain:example.com)\n", ["Bash(npm run *)", "mcp__github__search", "WebFetch(domain:example.com)"]],
  ["a folded string over several lines", "allowed-tools: >-\n  Read,\n  Bash(git log:*)\n  Glob\n", ["Read", "Bash(git log:*)", "Glob"]],
  ["a YAML list", "allowed-tools:\n  - Read\n  - Grep\n  - Bash(git add *)\n", ["Read", "Grep", "Bash(git add *)"]],
  ["a YAML flow list", 'allowed-tools: ["Bash(git:*)", Read]\n', ["Bash(git:*)", "Read"]],
  ["an empty value", "allowed-tools:\n", []],
];

describe("parseAllowedTools", () => {
  it.each(FORMS)("reads %s", (_form, yamlText, patterns) => {
    expect(parseAllowedTools(field(yamlText))).toEqual(patterns);
  });

  it("splits on the same separators whether or not the value has parentheses", () => {
    // A no-break space or form feed separates "Read" from "Write"; it did so only when no "(" was present.
    expect(parseAllowedTools("Read\u00a0Write")).toEqual(["Read", "Write"]);
    expect(parseAllowedTools("Bash(git:*)\u00a0Read\fWrite")).toEqual(["Bash(git:*)", "Read", "Write"]);
    expect(parseAllowedTools("  Read,,Write\n\tGlob ")).toEqual(["Read", "Write", "Glob"]);
  });

  it("takes list items as whole patterns and drops non-strings", () => {
    // "Read Write" as one item is one pattern (which allows nothing: the safe reading of a malformed list).
    expect(parseAllowedTools(["Read Write", " Bash(git log:*) ", 3, "", null])).toEqual(["Read Write", "Bash(git log:*)"]);
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
