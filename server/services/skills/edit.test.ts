import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SkillConflictError, SkillServiceError } from "./errors";
import { createFile, createFolder, deletePath, readSkillFile, renamePath, restoreVersion, saveFile, skillTree } from "./edit";
import { createSkill, deleteSkill, listDeleted, restoreDeleted, checkNewName } from "./lifecycle";
import { listVersions } from "./history";
import { skillDirOf } from "./location";
import { writeSkillOnDisk } from "./test-support/skills";
import { useSkillsTestHome } from "../../test-support/test-home";

const h = useSkillsTestHome();

const code = async (fn: () => unknown) => {
  try {
    await fn();
  } catch (e) {
    return (e as SkillServiceError).code;
  }
  return "no error";
};

describe("create, save, conflict, restore", () => {
  it("creates a skill from a template with a first version and an audit event", async () => {
    const author = h.ctx(h.actor("author"));
    const { ref } = await createSkill(author, { layer: "project", name: "pdf-tools", description: "Fill PDF forms. Use for PDFs.", template: "with-reference" });
    const dir = skillDirOf(h.dataHome, ref);
    expect(fs.readFileSync(path.join(dir, "SKILL.md"), "utf8")).toContain("name: pdf-tools");
    expect(fs.existsSync(path.join(dir, "references/REFERENCE.md"))).toBe(true);
    const versions = await listVersions(h.db, ref);
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ action: "create", path: "SKILL.md", authorEmail: "author-1@x.io" });
    expect(h.audit.events.at(-1)).toMatchObject({ type: "skill_saved", skill: "pdf-tools", layer: "project" });
  });

  it("the name is checked against the spec and against existing folders in that layer", async () => {
    const author = h.ctx(h.actor("author"));
    expect((await checkNewName(author, { layer: "project" }, "Bad--Name")).ok).toBe(false);
    // The validator's rule, with its valid suggestion: the name the form accepts is the name the validator accepts.
    expect((await checkNewName(author, { layer: "project" }, "Good_One")).problems[0]).toBe('name "Good_One" must be lowercase: use "good-one".');
    expect((await checkNewName(author, { layer: "project" }, "a".repeat(65))).problems.join()).toMatch(/64/);
    expect(await checkNewName(author, { layer: "project" }, "good-name")).toEqual({ ok: true, problems: [], warnings: [] });
    // A name the spec allows but a console folder does not: one message that agrees with the rule, and an ASCII name.
    expect(await checkNewName(author, { layer: "project" }, "café-notes")).toEqual({ ok: false, problems: ['The console names skill folders in ASCII: lowercase a-z, digits and single hyphens. "cafe-notes" would do.'], warnings: [] });
    expect((await checkNewName(author, { layer: "project" }, "ملاحظات")).problems).toEqual(["The console names skill folders in ASCII: lowercase a-z, digits and single hyphens."]);
    await createSkill(author, { layer: "project", name: "good-name", description: "x", template: "basic" });
    expect((await checkNewName(author, { layer: "project" }, "good-name")).problems.join()).toMatch(/already exists/);
    expect((await checkNewName(author, { layer: "personal" }, "good-name")).ok).toBe(true);
    expect(await code(() => createSkill(author, { layer: "project", name: "good-name", description: "x", template: "basic" }))).toBe("BAD_REQUEST");
  });

  it("a save with the loaded digest writes atomically and records a version; a stale digest is a conflict and writes nothing", async () => {
    const a = h.ctx(h.actor("author"));
    const b = h.ctx(h.actor("author", "author-2"));
    const { ref } = await createSkill(a, { layer: "project", name: "notes", description: "Take notes. Use for notes.", template: "basic" });
    const loadedA = readSkillFile(a, ref, "SKILL.md");
    const loadedB = readSkillFile(b, ref, "SKILL.md");
    const first = await saveFile(a, { ref, path: "SKILL.md", text: loadedA.text + "\nA's line\n", baseDigest: loadedA.digest, message: "add A" });
    expect(first.digest).not.toBe(loadedA.digest);
    const err = await (async () => {
      try {
        await saveFile(b, { ref, path: "SKILL.md", text: loadedB.text + "\nB's line\n", baseDigest: loadedB.digest });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(SkillConflictError);
    const c = err as SkillConflictError;
    expect(c.theirs).toContain("A's line");
    expect(c.yours).toContain("B's line");
    expect(c.diff).toContain("-A's line");
    expect(c.diff).toContain("+B's line");
    const onDisk = fs.readFileSync(path.join(skillDirOf(h.dataHome, ref), "SKILL.md"), "utf8");
    expect(onDisk).toContain("A's line");
    expect(onDisk).not.toContain("B's line");
    expect((await listVersions(h.db, ref)).map((v) => v.action)).toEqual(["save", "create"]);
    // No temp files are left beside the skill.
    expect(fs.readdirSync(skillDirOf(h.dataHome, ref)).filter((n) => n.startsWith("."))).toEqual([]);
  });

  it("two saves sent at once from the same loaded text: one is written, the other is a conflict", async () => {
    const a = h.ctx(h.actor("author"));
    const b = h.ctx(h.actor("author", "author-2"));
    const { ref } = await createSkill(a, { layer: "project", name: "race", description: "Race. Use for races.", template: "basic" });
    const loaded = readSkillFile(a, ref, "SKILL.md");
    const both = await Promise.allSettled([
      saveFile(a, { ref, path: "SKILL.md", text: loaded.text + "\nA's line\n", baseDigest: loaded.digest }),
      saveFile(b, { ref, path: "SKILL.md", text: loaded.text + "\nB's line\n", baseDigest: loaded.digest }),
    ]);
    expect(both[0].status).toBe("fulfilled");
    expect(both[1].status === "rejected" && both[1].reason).toBeInstanceOf(SkillConflictError);
    expect(fs.readFileSync(path.join(skillDirOf(h.dataHome, ref), "SKILL.md"), "utf8")).toContain("A's line");
  });

  it("two creates of one name at once: one skill is made, the other is refused as taken", async () => {
    const a = h.ctx(h.actor("author"));
    const make = () => createSkill(a, { layer: "project", name: "twin", description: "Twin. Use for twins.", template: "basic" });
    const both = await Promise.allSettled([make(), make()]);
    // Either may come first (on PostgreSQL the name check waits on the network): one is made, the other refused.
    expect(both.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = both.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((refused.reason as SkillServiceError).code).toBe("BAD_REQUEST");
  });

  it("an edit made on disk (git, another editor) after opening is a conflict too", async () => {
    const a = h.ctx(h.actor("author"));
    const { ref } = await createSkill(a, { layer: "project", name: "ondisk", description: "x y", template: "basic" });
    const loaded = readSkillFile(a, ref, "SKILL.md");
    fs.appendFileSync(path.join(skillDirOf(h.dataHome, ref), "SKILL.md"), "\nfrom git\n");
    await expect(saveFile(a, { ref, path: "SKILL.md", text: "mine", baseDigest: loaded.digest })).rejects.toThrow(SkillConflictError);
  });

  it("restoring a version writes its content as a new version, and is conflict-checked", async () => {
    const a = h.ctx(h.actor("author"));
    const { ref, versionId: v1 } = await createSkill(a, { layer: "project", name: "restorable", description: "x y", template: "basic" });
    const original = readSkillFile(a, ref, "SKILL.md");
    const saved = await saveFile(a, { ref, path: "SKILL.md", text: original.text!.replace("# restorable", "# changed"), baseDigest: original.digest });
    await expect(restoreVersion(a, v1, original.digest)).rejects.toThrow(SkillConflictError);
    const restored = await restoreVersion(a, v1, saved.digest);
    expect(restored.digest).toBe(original.digest);
    expect(readSkillFile(a, ref, "SKILL.md").text).toBe(original.text);
    expect((await listVersions(h.db, ref)).map((v) => v.action)).toEqual(["restore", "save", "create"]);
    expect(h.audit.events.at(-1)).toMatchObject({ type: "skill_restored" });
  });
});

describe("changes made outside the console", () => {
  it("the text on disk becomes a version before the console overwrites it, so it can be restored", async () => {
    const a = h.ctx(h.actor("author"));
    const dir = path.join(h.dataHome.projectRoot, ".omniforge/skills/seeded");
    writeSkillOnDisk(dir, { "SKILL.md": "---\nname: seeded\ndescription: Seeded on disk. Use it.\n---\nOriginal\n" });
    const ref = { layer: "project" as const, skill: "seeded" };
    const loaded = readSkillFile(a, ref, "SKILL.md");
    const saved = await saveFile(a, { ref, path: "SKILL.md", text: loaded.text!.replace("Original", "Console"), baseDigest: loaded.digest });
    let versions = await listVersions(h.db, ref);
    expect(versions.map((v) => [v.authorEmail, v.message])).toEqual([
      ["author-1@x.io", ""],
      ["on disk", "on disk before the first console edit"],
    ]);
    // A git pull changes it; the next console save keeps that text as a version too.
    fs.writeFileSync(path.join(dir, "SKILL.md"), loaded.text!.replace("Original", "FromGit"));
    const now = readSkillFile(a, ref, "SKILL.md");
    expect(now.digest).not.toBe(saved.digest);
    await saveFile(a, { ref, path: "SKILL.md", text: now.text! + "more\n", baseDigest: now.digest });
    versions = await listVersions(h.db, ref);
    expect(versions[1]).toMatchObject({ authorEmail: "on disk", message: "changed on disk outside the console" });
    await restoreVersion(a, versions.at(-1)!.id, readSkillFile(a, ref, "SKILL.md").digest);
    expect(readSkillFile(a, ref, "SKILL.md").text).toContain("Original");
  });
});

describe("files of a skill", () => {
  it("adds, renames and deletes files and folders; binary files are listed with their size, never decoded", async () => {
    const a = h.ctx(h.actor("author"));
    const { ref } = await createSkill(a, { layer: "project", name: "tree", description: "x y", template: "basic" });
    createFolder(a, ref, "assets");
    await createFile(a, ref, "references/guide.md", "# Guide\n");
    fs.writeFileSync(path.join(skillDirOf(h.dataHome, ref), "assets/logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]));
    await renamePath(a, ref, "references/guide.md", "references/howto.md");
    const tree = skillTree(a, ref);
    expect(tree.find((n) => n.path === "assets/logo.png")).toMatchObject({ type: "file", binary: true, size: 8 });
    expect(tree.find((n) => n.path === "references/howto.md")).toMatchObject({ binary: false });
    expect(tree.some((n) => n.path === "references/guide.md")).toBe(false);
    expect(readSkillFile(a, ref, "assets/logo.png")).toMatchObject({ binary: true, text: null });
    await deletePath(a, ref, "assets");
    expect(skillTree(a, ref).some((n) => n.path.startsWith("assets"))).toBe(false);
    expect(await code(() => deletePath(a, ref, "SKILL.md"))).toBe("BAD_REQUEST");
    expect(await code(() => renamePath(a, ref, "SKILL.md", "README.md"))).toBe("BAD_REQUEST");
    expect(await code(() => createFile(a, ref, "references/howto.md", "again"))).toBe("CONFLICT");
  });

  it("no path leaves the skill folder: .., absolute, backslash, NUL, symlinks out", async () => {
    const a = h.ctx(h.actor("author"));
    const { ref } = await createSkill(a, { layer: "project", name: "jail", description: "x y", template: "basic" });
    const dir = skillDirOf(h.dataHome, ref);
    const outside = path.join(h.dir, "outside");
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, "secret.txt"), "secret");
    fs.symlinkSync(outside, path.join(dir, "link"));
    for (const bad of ["../escape.md", "a/../../escape.md", "/etc/passwd", "C:/x", "a\\..\\b", "a\0b", "link/secret.txt", "link/new.txt", ""]) {
      expect(await code(() => createFile(a, ref, bad, "pwned")), bad).toBe("BAD_REQUEST");
      expect(await code(() => readSkillFile(a, ref, bad)), bad).toBe("BAD_REQUEST");
    }
    expect(await code(() => renamePath(a, ref, "SKILL.md", "../SKILL.md"))).toBe("BAD_REQUEST");
    expect(await code(() => deletePath(a, ref, "link/secret.txt"))).toBe("BAD_REQUEST");
    expect(fs.readdirSync(outside)).toEqual(["secret.txt"]);
    expect(fs.existsSync(path.join(path.dirname(dir), "escape.md"))).toBe(false);
    // The skill reference itself is confined too.
    expect(await code(() => readSkillFile(a, { layer: "project", skill: "../../x" }, "SKILL.md"))).toBe("BAD_REQUEST");
  });
});

describe("rights", () => {
  it("viewers read but cannot save; authors write project and their own personal layer; admins also enterprise and plugins", async () => {
    const admin = h.ctx(h.actor("admin"));
    const author = h.ctx(h.actor("author"));
    const viewer = h.ctx(h.actor("viewer"));
    const { ref } = await createSkill(author, { layer: "project", name: "shared", description: "x y", template: "basic" });
    const loaded = readSkillFile(viewer, ref, "SKILL.md");
    expect(loaded.text).toContain("name: shared");
    expect(await code(() => saveFile(viewer, { ref, path: "SKILL.md", text: "x", baseDigest: loaded.digest }))).toBe("FORBIDDEN");
    expect(await code(() => deleteSkill(viewer, ref))).toBe("FORBIDDEN");
    expect(await code(() => createSkill(viewer, { layer: "project", name: "v", description: "x", template: "basic" }))).toBe("FORBIDDEN");
    expect(await code(() => createSkill(author, { layer: "enterprise", name: "e", description: "x", template: "basic" }))).toBe("FORBIDDEN");
    await createSkill(admin, { layer: "enterprise", name: "e", description: "x y", template: "basic" });
    const eref = { layer: "enterprise" as const, skill: "e" };
    const e = readSkillFile(author, eref, "SKILL.md");
    expect(await code(() => saveFile(author, { ref: eref, path: "SKILL.md", text: "x", baseDigest: e.digest }))).toBe("FORBIDDEN");
    // Personal: own only.
    const { ref: mine } = await createSkill(author, { layer: "personal", name: "mine", description: "x y", template: "basic" });
    expect(mine.ownerId).toBe("author-1");
    const other = h.ctx(h.actor("author", "author-2"));
    expect(await code(() => readSkillFile(other, mine, "SKILL.md"))).toBe("FORBIDDEN");
    expect(await code(() => createFile(other, mine, "x.md"))).toBe("FORBIDDEN");
    expect(await code(() => createFile(admin, mine, "x.md"))).toBe("FORBIDDEN");
    expect(fs.readFileSync(path.join(skillDirOf(h.dataHome, ref), "SKILL.md"), "utf8")).toBe(loaded.text);
  });
});

describe("delete and restore a whole skill", () => {
  it("keeps every file (text, binary, executable bit) in the delete version and brings them back", async () => {
    const a = h.ctx(h.actor("author"));
    const { ref } = await createSkill(a, { layer: "project", name: "gone", description: "x y", template: "with-script" });
    const dir = skillDirOf(h.dataHome, ref);
    writeSkillOnDisk(dir, { "assets/bin.dat": new Uint8Array([0, 1, 2, 255]) });
    const before = skillTree(a, ref);
    const { versionId } = await deleteSkill(a, ref);
    expect(fs.existsSync(dir)).toBe(false);
    expect(h.audit.events.at(-1)).toMatchObject({ type: "skill_deleted", skill: "gone" });
    expect((await listDeleted(a)).map((d) => d.ref.skill)).toEqual(["gone"]);
    expect(await code(() => readSkillFile(a, ref, "SKILL.md"))).toBe("NOT_FOUND");
    await restoreDeleted(a, versionId);
    expect(skillTree(a, ref)).toEqual(before);
    expect(fs.readFileSync(path.join(dir, "assets/bin.dat"))).toEqual(Buffer.from([0, 1, 2, 255]));
    expect(fs.statSync(path.join(dir, "scripts/run.sh")).mode & 0o111).not.toBe(0);
    expect(await listDeleted(a)).toEqual([]);
    expect(h.audit.events.at(-1)).toMatchObject({ type: "skill_restored" });
    expect(await code(() => restoreDeleted(a, versionId))).toBe("CONFLICT");
  });
});
