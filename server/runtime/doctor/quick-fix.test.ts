import { describe, expect, it } from "vitest";
import { applyToolFix, splitPatterns } from "./quick-fix";

const md = (fm: string) => `---\nname: x\ndescription: Does x. Use for x.\n${fm}---\n# Body\n\nRun it.\n`;

describe("the doctor's allowed-tools quick fixes", () => {
  it("adds a pattern to the line, or a line when there is none, and keeps the rest byte for byte", () => {
    expect(applyToolFix(md("allowed-tools: Read Bash(git add *)\n"), { addTool: "Bash(python3 *)" })).toBe(md("allowed-tools: Read Bash(git add *) Bash(python3 *)\n"));
    expect(applyToolFix(md(""), { addTool: "Write" })).toBe(md("allowed-tools: Write\n"));
    expect(applyToolFix(md("allowed-tools:\n  - Read\n"), { addTool: "WebFetch" })).toBe(md("allowed-tools:\n  - Read\n  - WebFetch\n"));
  });

  it("removes exactly the unused pattern, with spaces inside parentheses kept whole", () => {
    expect(splitPatterns("Read, Bash(git add *) Write")).toEqual(["Read", "Bash(git add *)", "Write"]);
    expect(applyToolFix(md("allowed-tools: Read Bash(git add *) Write\n"), { removeTool: "Bash(git add *)" })).toBe(md("allowed-tools: Read Write\n"));
    expect(applyToolFix(md("allowed-tools:\n  - Read\n  - Write\n"), { removeTool: "Write" })).toBe(md("allowed-tools:\n  - Read\n"));
    expect(applyToolFix(md("allowed-tools: Read\n"), { removeTool: "Write" })).toBeNull();
    expect(applyToolFix("# no frontmatter\n", { addTool: "Read" })).toBeNull();
  });
});
