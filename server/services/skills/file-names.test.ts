// Issue #35 items 9 and 10: what a skill can never hold is refused when an author writes it (a name with terminal
// escapes, newlines or direction marks, as an import refuses it; a .git/ or node_modules/ folder, which export and
// sync leave out and which makes sync keep its hands off a copy), while such a file that came on disk stays
// reachable to be renamed or deleted, and is never exported.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createFile, createFolder, deletePath, renamePath, skillTree } from "./edit";
import { createSkill } from "./lifecycle";
import { zipSync } from "fflate";
import { exportZip, importArchive } from "./transfer";
import { useSkillsTestHome } from "../../test-support/test-home";

const h = useSkillsTestHome();

async function code(fn: () => unknown): Promise<string> {
  try {
    await fn();
  } catch (e) {
    return (e as { code: string }).code;
  }
  return "none";
}

const setup = async () => {
  const author = h.ctx(h.actor("author"));
  const { ref } = await createSkill(author, { layer: "project", name: "notes", description: "Takes notes. Use for notes.", template: "basic" });
  return { author, ref, dir: path.join(h.dataHome.projectRoot, ".omniforge", "skills", "notes") };
};

describe("file names a skill cannot hold", () => {
  it("are refused at write: escapes, newlines, direction marks, .git/ and node_modules/; nothing is created", async () => {
    const { author, ref, dir } = await setup();
    const before = fs.readdirSync(dir).sort();
    for (const name of ["good/\u001b]0;owned\u0007evil", "forged\nline.md", "report\u202etxt.exe", ".git/config", "node_modules/x/index.js"]) {
      expect(await code(() => createFile(author, ref, name, "x"))).toBe("BAD_REQUEST");
    }
    expect(await code(() => createFolder(author, ref, ".git"))).toBe("BAD_REQUEST");
    expect(await code(() => createFolder(author, ref, "references/node_modules"))).toBe("BAD_REQUEST");
    expect(await code(() => renamePath(author, ref, "SKILL.md", ".git/HEAD"))).toBe("BAD_REQUEST");
    // On macOS and Windows (where agents' machines sync to) .GIT is .git: a repository's config there is git's to run.
    for (const name of [".GIT/config", "a/.Git/hooks/post-checkout", "Node_Modules/x.js"]) {
      expect(await code(() => createFile(author, ref, name, "x"))).toBe("BAD_REQUEST");
    }
    expect(fs.readdirSync(dir).sort()).toEqual(before);
    // Names that only look alike are fine.
    await createFile(author, ref, "references/git-notes.md", "x");
    createFolder(author, ref, "node_modules_docs");
  });

  it("do not come in by an archive either", async () => {
    const author = h.ctx(h.actor("author"));
    const md = new TextEncoder().encode("---\nname: vendored\ndescription: Vendored. Use it.\n---\n");
    for (const extra of ["vendored/.git/config", "vendored/.Git/config", "vendored/scripts/node_modules/left-pad/index.js"]) {
      const zip = zipSync({ "vendored/SKILL.md": md, [extra]: new TextEncoder().encode("x") });
      await expect(importArchive(author, { layer: "project", fileName: "vendored.zip", data: zip })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/cannot hold (\.git|node_modules)\//i) });
    }
    expect(fs.existsSync(path.join(h.dataHome.projectRoot, ".omniforge", "skills", "vendored"))).toBe(false);
  });

  it("one that came on disk can be renamed and deleted, and is never exported", async () => {
    const { author, ref, dir } = await setup();
    fs.writeFileSync(path.join(dir, "bad\u001bname.md"), "x");
    expect(await code(() => exportZip(author, ref))).toBe("BAD_REQUEST");
    expect(skillTree(author, ref).some((n) => n.path === "bad\u001bname.md")).toBe(true);
    await renamePath(author, ref, "bad\u001bname.md", "fixed.md");
    exportZip(author, ref);
    fs.writeFileSync(path.join(dir, "other\u202e.md"), "x");
    await deletePath(author, ref, "other\u202e.md");
    expect(fs.existsSync(path.join(dir, "other\u202e.md"))).toBe(false);
  });
});
