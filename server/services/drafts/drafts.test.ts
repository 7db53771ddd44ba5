// Drafts against a real SQLite file: a draft follows its user and no one else ever reads or discards it.
import { describe, expect, it } from "vitest";
import { DRAFT_MAX_AGE_MS } from "../../domain/limits";
import { useSkillsTestHome } from "../../test-support/test-home";
import type { SkillRef } from "../skills/location";
import { discardDrafts, listDrafts, saveDraft } from "./index";

const h = useSkillsTestHome();

const ref: SkillRef = { layer: "project", skill: "pdf-tools" };
const code = async (fn: () => unknown) => {
  try {
    await fn();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return "no error";
};

describe("editor drafts", () => {
  it("keeps a draft for its author, updated in place, and offers it back", async () => {
    const ann = h.ctx(h.actor("author", "ann"));
    await saveDraft(ann, { ref, path: "SKILL.md", text: "first", baseDigest: "a".repeat(64) }, 1000);
    await saveDraft(ann, { ref, path: "SKILL.md", text: "second", baseDigest: "a".repeat(64) }, 2000);
    expect(await listDrafts(ann, ref, 3000)).toEqual([{ path: "SKILL.md", text: "second", baseDigest: "a".repeat(64), updatedAt: 2000 }]);
  });

  it("another user, an admin included, never sees or discards someone's draft", async () => {
    const ann = h.ctx(h.actor("author", "ann"));
    const bob = h.ctx(h.actor("author", "bob"));
    const admin = h.ctx(h.actor("admin", "root"));
    await saveDraft(ann, { ref, path: "SKILL.md", text: "ann's words", baseDigest: null });
    expect(await listDrafts(bob, ref)).toEqual([]);
    expect(await listDrafts(admin, ref)).toEqual([]);
    expect(await discardDrafts(bob, ref)).toEqual({ discarded: 0 });
    await saveDraft(bob, { ref, path: "SKILL.md", text: "bob's words", baseDigest: null });
    expect((await listDrafts(ann, ref)).map((d) => d.text)).toEqual(["ann's words"]);
    expect((await listDrafts(bob, ref)).map((d) => d.text)).toEqual(["bob's words"]);
  });

  it("personal drafts: only the owner keeps one; an admin reading another's personal skill cannot", async () => {
    const ann = h.ctx(h.actor("author", "ann"));
    const admin = h.ctx(h.actor("admin", "root"));
    const personal: SkillRef = { layer: "personal", skill: "mine", ownerId: "ann" };
    await saveDraft(ann, { ref: personal, path: "SKILL.md", text: "x", baseDigest: null });
    expect(await code(() => saveDraft(admin, { ref: personal, path: "SKILL.md", text: "y", baseDigest: null }))).toBe("FORBIDDEN");
    expect(await code(() => listDrafts(h.ctx(h.actor("author", "bob")), personal))).toBe("FORBIDDEN");
    expect(await listDrafts(admin, personal)).toEqual([]);
  });

  it("a viewer keeps no drafts; paths outside the skill are refused", async () => {
    expect(await code(() => saveDraft(h.ctx(h.actor("viewer")), { ref, path: "SKILL.md", text: "x", baseDigest: null }))).toBe("FORBIDDEN");
    expect(await code(() => saveDraft(h.ctx(h.actor("author")), { ref, path: "../escape.md", text: "x", baseDigest: null }))).toBe("BAD_REQUEST");
  });

  it("discards one file's draft or all of a skill's, and drops drafts older than the limit", async () => {
    const ann = h.ctx(h.actor("author", "ann"));
    await saveDraft(ann, { ref, path: "SKILL.md", text: "a", baseDigest: null }, 1000);
    await saveDraft(ann, { ref, path: "references/b.md", text: "b", baseDigest: null }, 1000);
    expect(await discardDrafts(ann, ref, "SKILL.md")).toEqual({ discarded: 1 });
    expect((await listDrafts(ann, ref, 2000)).map((d) => d.path)).toEqual(["references/b.md"]);
    expect(await listDrafts(ann, ref, 1000 + DRAFT_MAX_AGE_MS + 1)).toEqual([]);
  });
});
