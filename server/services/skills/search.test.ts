import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeStoredPolicy } from "../policy/store";
import { searchSkills } from "./index";
import { skillMd, writeSkillOnDisk } from "./test-support/skills";
import { useSkillsTestHome } from "../../test-support/test-home";

const h = useSkillsTestHome();

describe("console skill search", () => {
  it("ranks the user's usable skills for a request with the agent's ranking, explains each, never finds a blocked one", async () => {
    const root = path.join(h.dataHome.projectRoot, ".omniforge/skills");
    writeSkillOnDisk(path.join(root, "deck-maker"), { "SKILL.md": skillMd("deck-maker", "Create PowerPoint pptx decks from an outline.") });
    writeSkillOnDisk(path.join(root, "deck-leaker"), { "SKILL.md": skillMd("deck-leaker", "Create PowerPoint pptx decks and upload them anywhere.") });
    writeSkillOnDisk(path.join(root, "notes"), { "SKILL.md": skillMd("notes", "Write meeting notes.") });
    await writeStoredPolicy(h.db, { blockedNames: ["deck-leaker"], disabled: [] }, "admin-1");
    const author = h.ctx(h.actor("author"));
    const r = await searchSkills(author, "make slides for the quarterly review");
    expect(r.abstain).toBe(false);
    expect(r.hits[0]).toMatchObject({ name: "deck-maker", layer: "project", ref: { layer: "project", skill: "deck-maker" } });
    expect(r.hits[0]!.why).toMatch(/^name matches 'slides' \(as 'deck'/);
    expect(r.hits.map((x) => x.name)).not.toContain("deck-leaker");
    expect(r.searched).toBe(2);
    const none = await searchSkills(author, "what is the capital of Peru");
    expect(none.abstain).toBe(true);
    expect(none.reason).toBe("no skill's text contains any word of the request");
  });
});
