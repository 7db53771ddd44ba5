import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeStoredPolicy } from "../policy/store";
import { searchSkills } from "./index";
import { skillMd, writeSkillOnDisk } from "./test-support/skills";
import { useSkillsTestHome } from "../../test-support/test-home";
import { scriptedEmbeddings } from "../../runtime/search/test-support/search";

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

  it("with an embeddings endpoint, fuses meaning as the agent does, and says once when the endpoint fails", async () => {
    const root = path.join(h.dataHome.projectRoot, ".omniforge/skills");
    writeSkillOnDisk(path.join(root, "wetlab-assays"), { "SKILL.md": skillMd("wetlab-assays", "Order binding assays for antibodies from a partner laboratory.") });
    writeSkillOnDisk(path.join(root, "design-notes"), { "SKILL.md": skillMd("design-notes", "Write design notes for the target architecture of an invoice, billing and payment system.") });
    writeSkillOnDisk(path.join(root, "poem-writer"), { "SKILL.md": skillMd("poem-writer", "Write short poems and haiku for any occasion.") });
    writeSkillOnDisk(path.join(root, "latency-tuner"), { "SKILL.md": skillMd("latency-tuner", "Bring down the p99 of web services under load.") });
    const server = await scriptedEmbeddings();
    try {
      const author = h.ctx(h.actor("author"));
      const request = "check whether the peptides I ordered stick to the target of our designs";
      expect((await searchSkills(author, request)).hits[0]!.name).toBe("design-notes"); // words alone
      const env = { OMNIFORGE_EMBEDDINGS_URL: server.url, OMNIFORGE_EMBEDDINGS_MODEL: "scripted-console" };
      const fused = await searchSkills(author, request, 10, env);
      expect(fused.notes).toEqual([]);
      expect(fused.hits[0]).toMatchObject({ name: "wetlab-assays" });
      expect(fused.hits[0]!.why).toMatch(/found by words #2, meaning #1 \(similarity [01]\.\d\d\)$/);
      server.mode = "error";
      const down = { ...env, OMNIFORGE_EMBEDDINGS_MODEL: "scripted-console-down" };
      expect((await searchSkills(author, request, 10, down)).notes).toEqual(["the embeddings endpoint failed (embeddings.http: the server answered 500): ranked by words only until it answers again (tried again in 30 s, then less often while it fails)"]);
      const later = await searchSkills(author, request, 10, down);
      expect(later.notes).toEqual([]);
      expect(later.hits[0]!.name).toBe("design-notes");
    } finally {
      await server.close();
    }
  });
});
