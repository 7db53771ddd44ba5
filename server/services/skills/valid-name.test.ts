// Issue #35 item 8: a skill's name becomes a folder on every machine that syncs it, so a name that breaks the naming
// rule is refused at save and at import, nothing written; a SKILL.md that does not parse yet still saves (a draft).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { zipSync } from "fflate";
import { readSkillFile, saveFile } from "./edit";
import { createSkill } from "./lifecycle";
import { sha256 } from "./files";
import { skillMd } from "./test-support/skills";
import { importArchive } from "./transfer";
import { useSkillsTestHome } from "../../test-support/test-home";

const h = useSkillsTestHome();

async function refusal(fn: () => unknown): Promise<{ code: string; message: string; details?: unknown }> {
  try {
    await fn();
  } catch (e) {
    return { code: (e as { code: string }).code, message: (e as Error).message, details: (e as { details?: unknown }).details };
  }
  return { code: "none", message: "" };
}

describe("a skill name that is not a valid skill name", () => {
  it("is refused at save with the rule's reason, and the file stays as it was", async () => {
    const author = h.ctx(h.actor("author"));
    const { ref } = await createSkill(author, { layer: "project", name: "notes", description: "Takes notes. Use for notes.", template: "basic" });
    const before = readSkillFile(author, ref, "SKILL.md");
    for (const name of ['"../../../../tmp/x"', "Code-Review", "a/b"]) {
      const r = await refusal(() => saveFile(author, { ref, path: "SKILL.md", text: skillMd("notes").replace("name: notes", `name: ${name}`), baseDigest: before.digest }));
      expect(r.code).toBe("BAD_REQUEST");
      expect(r.message).toMatch(/^Not saved: the skill's name becomes its folder name .*name "/);
      expect(r.details).toMatchObject({ code: "skill.name-invalid" });
    }
    expect(readSkillFile(author, ref, "SKILL.md").digest).toBe(before.digest);
    expect(fs.existsSync(path.join(h.dataHome.projectRoot, "..", "..", "tmp", "x"))).toBe(false);
  });

  it("does not stop a draft that does not parse yet, nor a valid rename", async () => {
    const author = h.ctx(h.actor("author"));
    const { ref } = await createSkill(author, { layer: "project", name: "notes", description: "Takes notes. Use for notes.", template: "basic" });
    const first = readSkillFile(author, ref, "SKILL.md").digest;
    const draft = "---\nname: [unclosed\n";
    await saveFile(author, { ref, path: "SKILL.md", text: draft, baseDigest: first });
    await saveFile(author, { ref, path: "SKILL.md", text: skillMd("meeting-notes"), baseDigest: sha256(Buffer.from(draft)) });
    expect(readSkillFile(author, ref, "SKILL.md").text).toContain("name: meeting-notes");
  });

  it("is refused at import, nothing written; the dry run shows the rule's diagnostics", async () => {
    const author = h.ctx(h.actor("author"));
    const zip = zipSync({ "x/SKILL.md": new TextEncoder().encode(skillMd("x").replace("name: x", 'name: "../../../../tmp/x"')) });
    const dry = await importArchive(author, { layer: "project", fileName: "x.zip", data: zip, dryRun: true });
    expect(dry.diagnostics.some((d) => d.code.startsWith("name."))).toBe(true);
    const r = await refusal(() => importArchive(author, { layer: "project", fileName: "x.zip", data: zip }));
    expect(r.code).toBe("BAD_REQUEST");
    expect(r.message).toMatch(/^Not imported: /);
    expect(fs.existsSync(path.join(h.dataHome.projectRoot, ".omniforge", "skills", "x"))).toBe(false);
  });
});
