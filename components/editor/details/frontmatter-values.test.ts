import { describe, expect, it } from "vitest";
import { readFrontmatter } from "~/server/runtime/skill/frontmatter-document";
import { formValues } from "./frontmatter-values";

const values = (yaml: string) => {
  const r = readFrontmatter(`---\n${yaml}---\n`);
  if (!r.ok) throw new Error(r.error);
  return formValues(r.data);
};

describe("formValues", () => {
  it("shows lists as the runtime reads them: patterns with spaces stay whole, words split on commas and spaces", () => {
    const v = values("allowed-tools: Read Bash(git status:*), Grep\ntags: pdf, forms office\nscope:\n  agents: [claude-code]\n  tenants: acme\n");
    expect(v.allowedTools).toEqual(["Read", "Bash(git status:*)", "Grep"]);
    expect(v.tags).toEqual(["pdf", "forms", "office"]);
    expect([v.agents, v.environments, v.tenants]).toEqual([["claude-code"], [], ["acme"]]);
  });

  it("shows metadata as rows in file order, hooks by stage, and absent fields as empty", () => {
    const v = values("metadata:\n  b: two\n  a: one\nhooks:\n  pre: scripts/pre.sh\n");
    expect(v.metadata).toEqual([
      ["b", "two"],
      ["a", "one"],
    ]);
    expect([v.pre, v.post, v.license, v.priority]).toEqual(["scripts/pre.sh", "", "", ""]);
  });
});
