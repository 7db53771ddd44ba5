// Issue #12 item 1: a skill folder (or a folder on the way) that is a symbolic link leaving its layer is refused
// by every file procedure, listed as an invalid entry that says why, and can be deleted (the link, not its target).
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFile, createFolder, deletePath, readSkillFile, renamePath, saveFile, skillTree } from "./edit";
import type { SkillServiceError } from "./errors";
import { listSkills, skillInfo } from "./index";
import { createSkill, deleteSkill } from "./lifecycle";
import type { SkillRef } from "./location";
import { skillMd, writeSkillOnDisk } from "./test-support/skills";
import { useSkillsTestHome } from "../../test-support/test-home";
import { exportZip, importArchive } from "./transfer";
import { zipSync } from "fflate";

const h = useSkillsTestHome();
let outside: string;
let projectRoot: string;
beforeEach(() => {
  projectRoot = path.join(h.dataHome.projectRoot, ".omniforge", "skills");
  outside = path.join(h.dir, "..", `outside-${path.basename(h.dir)}`);
  writeSkillOnDisk(path.join(outside, "stolen"), { "SKILL.md": skillMd("stolen", "Private notes of another user."), "secret.txt": "top secret" });
  writeSkillOnDisk(path.join(projectRoot, "pdf-tools"), { "SKILL.md": skillMd("pdf-tools"), "references/guide.md": "# Guide\n" });
});
afterEach(() => {
  fs.rmSync(outside, { recursive: true, force: true });
});

/** The error code and message of a call that must be refused. */
async function refusal(fn: () => unknown): Promise<{ code: string; message: string }> {
  try {
    await fn();
  } catch (e) {
    return { code: (e as SkillServiceError).code, message: (e as Error).message };
  }
  return { code: "none", message: "" };
}

const evil: SkillRef = { layer: "project", skill: "evil" };

describe("a linked skill folder that leaves the layer", () => {
  beforeEach(() => fs.symlinkSync(path.join(outside, "stolen"), path.join(projectRoot, "evil")));

  it("is refused for reading, listing files and export, with the reason", async () => {
    const viewer = h.ctx(h.actor("viewer"));
    for (const fn of [() => readSkillFile(viewer, evil, "secret.txt"), () => readSkillFile(viewer, evil, "SKILL.md"), () => skillTree(viewer, evil), () => exportZip(viewer, evil)]) {
      const r = await refusal(fn);
      expect(r.code).toBe("FORBIDDEN");
      expect(r.message).toMatch(/evil is a symbolic link .* outside its layer folder/);
    }
  });

  it("is refused for every write, and nothing appears outside", async () => {
    const author = h.ctx(h.actor("author"));
    const calls = [
      () => createFile(author, evil, "planted.md", "x"),
      () => createFolder(author, evil, "planted"),
      () => saveFile(author, { ref: evil, path: "SKILL.md", text: "overwritten", baseDigest: null }),
      () => renamePath(author, evil, "secret.txt", "moved.txt"),
      () => deletePath(author, evil, "secret.txt"),
      () => createSkill(author, { layer: "project", name: "evil", description: "x. Use for x.", template: "minimal" }),
    ];
    for (const fn of calls) expect((await refusal(fn)).code).not.toBe("none");
    expect(fs.readdirSync(path.join(outside, "stolen")).sort()).toEqual(["SKILL.md", "secret.txt"]);
    expect(fs.readFileSync(path.join(outside, "stolen", "SKILL.md"), "utf8")).toContain("name: stolen");
  });

  it("is listed as an invalid entry that says why", async () => {
    const viewer = h.ctx(h.actor("viewer"));
    const list = await listSkills(viewer, {});
    const row = list.rows.find((r) => r.ref.skill === "evil");
    expect(row).toBeDefined();
    expect(JSON.stringify(row)).toMatch(/link\.outside-layer|outside its layer folder/);
    expect(JSON.stringify(list)).not.toContain("Private notes of another user");
    await expect(skillInfo(viewer, evil)).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("can be deleted by an author: the link goes, its target stays", async () => {
    expect((await refusal(() => deleteSkill(h.ctx(h.actor("viewer")), evil))).code).toBe("FORBIDDEN");
    await deleteSkill(h.ctx(h.actor("author")), evil);
    expect(fs.lstatSync(path.join(projectRoot, "evil"), { throwIfNoEntry: false })).toBeUndefined();
    expect(fs.existsSync(path.join(outside, "stolen", "secret.txt"))).toBe(true);
    expect(h.audit.events.at(-1)).toMatchObject({ type: "skill_deleted", skill: "evil" });
  });

  it("an import cannot land in it", async () => {
    const zip = zipSync({ "evil/SKILL.md": new TextEncoder().encode(skillMd("evil")) });
    const r = await refusal(() => importArchive(h.ctx(h.actor("author")), { layer: "project", data: zip, fileName: "evil.zip", folder: "evil" }));
    expect(r.code).not.toBe("none");
    expect(fs.existsSync(path.join(outside, "stolen", "evil"))).toBe(false);
  });
});

describe("other links", () => {
  it("a linked collection folder below the layer is refused for the skills inside it", async () => {
    fs.mkdirSync(path.join(projectRoot, "team"));
    fs.symlinkSync(outside, path.join(projectRoot, "team", "shared"));
    const r = await refusal(() => readSkillFile(h.ctx(h.actor("viewer")), { layer: "project", skill: "team/shared/stolen" }, "secret.txt"));
    expect(r.code).toBe("FORBIDDEN");
  });

  it("a personal skill folder linked to another user's personal skills is refused", async () => {
    const other = path.join(h.dataHome.home, "users", "author-2", "skills");
    writeSkillOnDisk(path.join(other, "diary"), { "SKILL.md": skillMd("diary", "Author 2's diary.") });
    const mine = path.join(h.dataHome.home, "users", "viewer-1", "skills");
    fs.mkdirSync(mine, { recursive: true });
    fs.symlinkSync(other, path.join(mine, "peek"));
    const r = await refusal(() => readSkillFile(h.ctx(h.actor("viewer")), { layer: "personal", skill: "peek/diary" }, "SKILL.md"));
    expect(r.code).toBe("FORBIDDEN");
  });

  it("a link inside a skill that stays inside it keeps working", async () => {
    fs.symlinkSync("guide.md", path.join(projectRoot, "pdf-tools", "references", "current.md"));
    const file = readSkillFile(h.ctx(h.actor("viewer")), { layer: "project", skill: "pdf-tools" }, "references/current.md");
    expect(file.text).toBe("# Guide\n");
    expect(exportZip(h.ctx(h.actor("viewer")), { layer: "project", skill: "pdf-tools" }).data.length).toBeGreaterThan(0);
  });
});

// Issue #35 item 1: the project's agent folder itself is the link. Judged against the project root, not against
// the real path of the agent folder (which the link chooses, so everything below it was "inside").
describe("a project skills folder that is itself a link out of the project", () => {
  const claude: SkillRef = { layer: "project", base: ".claude/skills", skill: "secrets" };
  beforeEach(() => {
    const secrets = path.join(h.dataHome.home, "secrets");
    fs.mkdirSync(secrets, { recursive: true });
    fs.writeFileSync(path.join(secrets, "nextauth-secret"), "session-signing-secret");
    fs.mkdirSync(path.join(h.dataHome.projectRoot, ".claude"), { recursive: true });
    fs.mkdirSync(path.join(h.dataHome.projectRoot, ".gemini"), { recursive: true });
    // <project>/.claude/skills -> <home>, so ".claude/skills/secrets" is the data home's secrets folder
    fs.symlinkSync(h.dataHome.home, path.join(h.dataHome.projectRoot, ".claude", "skills"));
    fs.symlinkSync("/", path.join(h.dataHome.projectRoot, ".gemini", "skills"));
  });

  it("serves nothing from it to a viewer: no file, no tree, no export, and /etc neither", async () => {
    const viewer = h.ctx(h.actor("viewer"));
    const etc: SkillRef = { layer: "project", base: ".gemini/skills", skill: "etc" };
    for (const fn of [() => readSkillFile(viewer, claude, "nextauth-secret"), () => skillTree(viewer, claude), () => exportZip(viewer, claude), () => readSkillFile(viewer, etc, "passwd")]) {
      const r = await refusal(fn);
      expect(r.code).toBe("FORBIDDEN");
      expect(r.message).toMatch(/The project folder \.(claude|gemini)\/skills is a symbolic link .* outside the project/);
      expect(r.message).not.toContain("session-signing-secret");
    }
  });

  it("takes no write through it", async () => {
    const author = h.ctx(h.actor("author"));
    const r = await refusal(() => createFile(author, claude, "planted.md", "x"));
    expect(r.code).toBe("FORBIDDEN");
    expect(fs.existsSync(path.join(h.dataHome.home, "secrets", "planted.md"))).toBe(false);
  });

  it("is listed as one refused folder with the reason, and nothing found below it is listed", async () => {
    const list = await listSkills(h.ctx(h.actor("viewer")), {});
    const refused = list.rows.filter((r) => r.ref.base === ".claude/skills" || r.ref.base === ".gemini/skills");
    expect(refused.map((r) => r.name).sort()).toEqual([".claude/skills", ".gemini/skills"]);
    expect(refused.every((r) => r.validity === "invalid")).toBe(true);
    expect(list.rows.map((r) => r.name)).toContain("pdf-tools");
  });
});
