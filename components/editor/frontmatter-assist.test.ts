import { describe, expect, it } from "vitest";
import { cursorContext, frontmatterRange, hoverFor, suggestionsFor } from "./frontmatter-assist";
import type { Vocabulary } from "./types";

const vocab: Vocabulary = {
  fields: [
    { name: "name", kind: "spec", type: "string", description: "The name.", required: true },
    { name: "description", kind: "spec", type: "string", description: "What and when." },
    { name: "allowed-tools", kind: "spec", type: "string", description: "Tools." },
    { name: "context", kind: "extension", type: "string", description: "Fork or not.", values: ["inherit", "fork"] },
    { name: "scope", kind: "extension", type: "mapping", description: "Where.", children: [{ name: "agents", kind: "extension", type: "list of strings", description: "Agents." }] },
  ],
  tools: [
    { name: "Read", detail: "read_file" },
    { name: "Bash", detail: "bash" },
  ],
  contextValues: ["inherit", "fork"],
};

const doc = "---\nname: x\ncontext: \nallowed-tools: Read B\nscope:\n  ag\ntools:\n  - \n---\nbody: not frontmatter\n".split("\n");

describe("frontmatter assist", () => {
  it("finds the frontmatter and what the cursor is on", () => {
    expect(frontmatterRange(doc)).toEqual({ start: 2, end: 8 });
    expect(cursorContext(doc, 2, 3)).toEqual({ kind: "key", parent: null, prefix: "na" });
    expect(cursorContext(doc, 3, 10)).toEqual({ kind: "value", field: "context", prefix: "" });
    expect(cursorContext(doc, 4, 22)).toEqual({ kind: "value", field: "allowed-tools", prefix: "B" });
    expect(cursorContext(doc, 6, 5)).toEqual({ kind: "key", parent: "scope", prefix: "ag" });
    expect(cursorContext(doc, 10, 3)).toEqual({ kind: "none" });
  });

  it("offers missing keys, context values and tool names", () => {
    const keys = suggestionsFor({ kind: "key", parent: null, prefix: "" }, vocab, doc).map((s) => s.label);
    expect(keys).toEqual(["description"]); // name, context, allowed-tools, scope are present
    expect(suggestionsFor(cursorContext(doc, 3, 10), vocab, doc).map((s) => s.label)).toEqual(["inherit", "fork"]);
    expect(suggestionsFor(cursorContext(doc, 4, 22), vocab, doc).map((s) => s.label)).toEqual(["Read", "Bash"]);
    expect(suggestionsFor(cursorContext(doc, 6, 5), vocab, doc).map((s) => s.label)).toEqual(["agents"]);
  });

  it("hover explains known fields and flags unknown ones", () => {
    expect(hoverFor(doc, 3, vocab)).toContain("Fork or not.");
    expect(hoverFor(doc, 6, vocab)).toBeNull(); // "  ag" has no colon yet
    expect(hoverFor(doc, 7, vocab)).toMatch(/not a known field/);
    expect(hoverFor(doc, 10, vocab)).toBeNull();
  });
});
