// A reserved word in a name (seed 003) under the omniforge rules, with and without the policy's allowance: the
// validator reports it, real folders are indexed and resolved, and validity.ts is where the policy decides.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkSkillSource } from "../skill";
import { writableRoot } from "./layers";
import { resolve } from "./resolve";
import { SkillIndex } from "./skill-index";
import { tempLayers, type TempLayers, writeSkill } from "./test-support/registry";
import type { RegistryPolicy } from "./types";
import { diagnosticsUnder, entryValidity } from "./validity";

let t: TempLayers;
beforeEach(() => {
  t = tempLayers();
});
afterEach(() => t.cleanup());

const strict: RegistryPolicy = { blockedNames: [], disabled: [] };
const allowing: RegistryPolicy = { ...strict, allowReservedNames: true };
const text = "---\nname: claude-helper\ndescription: Helps with drafts. Use when drafting.\n---\n# Helper\n";

describe("reserved words in names", () => {
  it("the validator reports the word under the omniforge rules only; the allowance removes that one error", () => {
    const spec = checkSkillSource(text, { dir: "/skills/claude-helper", rules: "spec" });
    expect(spec.diagnostics.map((d) => d.code)).not.toContain("name.reserved");
    const ours = checkSkillSource(text, { dir: "/skills/claude-helper", rules: "omniforge" });
    const reserved = ours.diagnostics.filter((d) => d.code === "name.reserved");
    expect(reserved).toHaveLength(1);
    expect(reserved[0]).toMatchObject({ severity: "error", line: 2 });
    expect(reserved[0]!.message).toContain('reserved word "claude"');
    expect(reserved[0]!.message).toContain("allowReservedNames");
    expect(ours.valid).toBe(false);

    expect(diagnosticsUnder(ours.diagnostics, strict)).toBe(ours.diagnostics);
    expect(diagnosticsUnder(ours.diagnostics, undefined)).toBe(ours.diagnostics);
    expect(diagnosticsUnder(ours.diagnostics, allowing).map((d) => d.code)).not.toContain("name.reserved");
  });

  it("an indexed skill named claude-helper: errors under the strict policy, ok once allowed, active either way", () => {
    writeSkill(writableRoot(t.config, "project"), "claude-helper");
    writeSkill(writableRoot(t.config, "project"), "plain-helper");
    const index = SkillIndex.build(t.config, { entries: { checks: "frontmatter" } });
    const entry = index.definitions("claude-helper")[0]!;
    expect(entry.status).toBe("errors");

    expect(entryValidity(entry, strict)).toMatchObject({ status: "errors", valid: false });
    const allowed = entryValidity(entry, allowing);
    expect(allowed).toEqual({ status: "ok", valid: true, diagnostics: [] });
    // The index itself is not changed: it is shared by every policy.
    expect(entry.status).toBe("errors");

    for (const policy of [strict, allowing]) {
      const r = resolve(index, "claude-helper", { policy });
      expect(r.active?.id).toBe(entry.id);
      expect(r.candidates[0]!.entry).toBe(entry);
    }
    // A name without the word is the same under both.
    const plain = index.definitions("plain-helper")[0]!;
    expect(entryValidity(plain, allowing)).toEqual({ status: plain.status, valid: plain.valid, diagnostics: plain.diagnostics });
  });

  it("an allowed word leaves the name's other errors in place", () => {
    writeSkill(writableRoot(t.config, "project"), "claude-helper", { name: "Claude-Helper" });
    const entry = SkillIndex.build(t.config, { entries: { checks: "frontmatter" } }).definitions("Claude-Helper")[0]!;
    const v = entryValidity(entry, allowing);
    expect(v.status).toBe("errors");
    expect(v.diagnostics.map((d) => d.code)).toContain("name.case");
    expect(v.diagnostics.map((d) => d.code)).not.toContain("name.reserved");
  });
});
