import { describe, expect, it } from "vitest";
import { FrontmatterError, readFrontmatter, setFrontmatterField, setFrontmatterFields } from "./frontmatter-document";
import { checkSkillSource } from "./check";

const SKILL = [
  "---",
  "# Owned by the forms team",
  "name: pdf-forms # the folder name",
  "description: Old words.",
  "x-team: forms",
  "allowed-tools: Read Bash(python3:*)",
  "tags: [pdf, forms]",
  "metadata:",
  "  author: ana # who to ask",
  "  version: \"1.0\"",
  "---",
  "# Body",
  "",
  "Keep: this --- and that.",
  "",
].join("\n");

describe("setFrontmatterField", () => {
  it("changes one field and keeps the other fields, comments and the body byte for byte", () => {
    const out = setFrontmatterField(SKILL, "description", "Fill PDF forms: field by field. Use when a form is given.");
    expect(out).toBe(SKILL.replace("description: Old words.", 'description: "Fill PDF forms: field by field. Use when a form is given."'));
  });

  it("keeps a comment, an unknown key and the key order when a new field is added", () => {
    const out = setFrontmatterField(SKILL, "license", "MIT");
    expect(out).toContain("# Owned by the forms team\nname: pdf-forms # the folder name\n");
    expect(out).toContain("x-team: forms\n");
    expect(out.indexOf("metadata:")).toBeLessThan(out.indexOf("license: MIT"));
    expect(out.indexOf("license: MIT")).toBeLessThan(out.indexOf("\n---\n# Body"));
  });

  it("keeps CRLF files CRLF", () => {
    expect(setFrontmatterField("---\r\nname: a # n\r\ndescription: b\r\n---\r\nbody\r\n", "description", "c")).toBe("---\r\nname: a # n\r\ndescription: c\r\n---\r\nbody\r\n");
  });

  it("leaves the text untouched when the value does not change, and writes numbers and words without quotes", () => {
    expect(setFrontmatterField(SKILL, "description", "Old words.")).toBe(SKILL);
    expect(setFrontmatterField(SKILL, "priority", "5")).toContain("\npriority: 5\n---");
    // Typed word by word in the form: the trailing space needs quotes for a moment, the finished value none.
    const typing = setFrontmatterField(SKILL, "description", "Fills forms ");
    expect(typing).toContain('description: "Fills forms "\n');
    expect(setFrontmatterField(typing, "description", "Fills forms fast.")).toContain("description: Fills forms fast.\n");
    // Cleared and typed again: the required field keeps its place.
    const cleared = setFrontmatterField(SKILL, "description", "");
    expect(cleared).toContain("name: pdf-forms # the folder name\ndescription:\nx-team");
    expect(setFrontmatterField(cleared, "description", "N")).toContain("name: pdf-forms # the folder name\ndescription: N\nx-team");
  });

  it("removes a field given empty, and refuses broken YAML and values that would end the frontmatter", () => {
    expect(setFrontmatterField(SKILL, "x-team", "")).not.toContain("x-team");
    expect(() => setFrontmatterField("---\nname: [a\n---\n", "description", "x")).toThrow(FrontmatterError);
    expect(() => setFrontmatterField(SKILL, "license", "a --- b")).toThrow(FrontmatterError);
  });

  it("gives a file without frontmatter one, keeping its text as the body", () => {
    const out = setFrontmatterFields("# Notes\n", [
      { path: ["name"], value: "notes" },
      { path: ["description"], value: "Keeps notes. Use when asked to note something." },
    ]);
    expect(out).toBe("---\nname: notes\ndescription: Keeps notes. Use when asked to note something.\n---\n# Notes\n");
    expect(checkSkillSource(out, { dir: "/skills/notes", rules: "omniforge" }).valid).toBe(true);
  });
});

describe("lists, nested fields and rows", () => {
  it("edits a flow list in place and writes allowed-tools as one line of words", () => {
    const out = setFrontmatterFields(SKILL, [
      { path: ["tags"], value: ["pdf", "forms", "office"] },
      { path: ["allowed-tools"], value: ["Read", "Bash(python3:*)", "Grep"] },
    ]);
    expect(out).toContain("tags: [pdf, forms, office]\n");
    expect(readFrontmatter(out)).toMatchObject({ ok: true, data: { tags: ["pdf", "forms", "office"], "allowed-tools": "Read Bash(python3:*) Grep" } });
    expect(out).toContain("allowed-tools: Read Bash(python3:*) Grep\n");
  });

  it("sets scope lists and removes the scope mapping when its last list goes", () => {
    const withScope = setFrontmatterFields(SKILL, [{ path: ["scope", "agents"], value: ["claude-code"] }]);
    expect(readFrontmatter(withScope)).toMatchObject({ ok: true, data: { scope: { agents: ["claude-code"] } } });
    expect(checkSkillSource(withScope, { dir: "/skills/pdf-forms", rules: "omniforge" }).properties?.scope).toEqual({ agents: ["claude-code"] });
    const without = setFrontmatterFields(withScope, [{ path: ["scope", "agents"], value: [] }]);
    expect(without).toBe(SKILL);
  });

  it("edits metadata rows in place: kept keys keep their comment, removed go, new come last", () => {
    const out = setFrontmatterField(SKILL, "metadata", [
      ["author", "bo"],
      ["owner", "forms"],
    ]);
    expect(out).toContain("metadata:\n  author: bo # who to ask\n  owner: forms\n---");
    expect(out).not.toContain("version");
  });

  it("reads the frontmatter as strings, and says why it cannot when it is broken", () => {
    expect(readFrontmatter("---\npriority: 5\ndisabled: true\n---\n")).toEqual({ ok: true, data: { priority: "5", disabled: "true" }, keys: ["priority", "disabled"] });
    expect(readFrontmatter("no frontmatter")).toMatchObject({ ok: false, missing: true });
    expect(readFrontmatter("---\nname: [a\n---\n")).toMatchObject({ ok: false, missing: false });
  });
});
