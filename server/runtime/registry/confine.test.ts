// Issue #12: linked folders must not escape their layer. Real folders and real symbolic links in a temp dir.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { assertInsideLayer, ConfinementError, linkEscape, realPathOf } from "./confine";
import { makeLayerConfig } from "./layers";
import { SkillIndex } from "./skill-index";
import { tempLayers, writeSkill, type TempLayers } from "./test-support/registry";

let t: TempLayers;
afterEach(() => t?.cleanup());

const projectSkills = () => path.join(t.project, ".omniforge", "skills");

function setup() {
  t = tempLayers();
  const root = projectSkills();
  writeSkill(root, "pdf-tools");
  const outside = path.join(t.base, "secrets");
  writeSkill(outside, "stolen", { description: "Another user's private skill. Use never." });
  return { root, outside };
}

describe("assertInsideLayer", () => {
  it("refuses a skill folder that is a link leaving the layer, and says where it points", () => {
    const { root, outside } = setup();
    fs.symlinkSync(outside, path.join(root, "evil"));
    expect(() => assertInsideLayer(root, path.join(root, "evil"))).toThrow(ConfinementError);
    expect(() => assertInsideLayer(root, path.join(root, "evil", "stolen", "SKILL.md"))).toThrow(/outside its layer folder/);
    // a file that does not exist yet below the link is judged by the folder it would land in
    expect(() => assertInsideLayer(root, path.join(root, "evil", "new", "x.md"))).toThrow(ConfinementError);
    expect(linkEscape(root, path.join(root, "evil"))?.code).toBe("link.outside-layer");
  });

  it("refuses a link to / and a link onto the layer itself", () => {
    const { root } = setup();
    fs.symlinkSync("/", path.join(root, "rootfs"));
    fs.symlinkSync(".", path.join(root, "self"));
    expect(linkEscape(root, path.join(root, "rootfs"))?.target).toBe("/");
    expect(linkEscape(root, path.join(root, "self"))?.code).toBe("link.is-root");
  });

  it("refuses a linked collection folder below the layer, and a broken link", () => {
    const { root, outside } = setup();
    fs.mkdirSync(path.join(root, "team"));
    fs.symlinkSync(outside, path.join(root, "team", "shared"));
    fs.symlinkSync(path.join(t.base, "nowhere"), path.join(root, "dangling"));
    expect(() => assertInsideLayer(root, path.join(root, "team", "shared", "stolen"))).toThrow(/outside its layer/);
    expect(linkEscape(root, path.join(root, "dangling"))?.code).toBe("link.broken");
  });

  it("accepts links that stay inside the layer, and a layer root that is itself a link", () => {
    const { root } = setup();
    fs.symlinkSync("pdf-tools", path.join(root, "pdf-alias"));
    expect(linkEscape(root, path.join(root, "pdf-alias"))).toBeNull();
    const dotfiles = path.join(t.base, "dotfiles-skills");
    writeSkill(dotfiles, "notes");
    const linkedRoot = path.join(t.home, "skills");
    fs.symlinkSync(dotfiles, linkedRoot);
    expect(assertInsideLayer(linkedRoot, path.join(linkedRoot, "notes", "SKILL.md"))).toBe(path.join(fs.realpathSync(dotfiles), "notes", "SKILL.md"));
    expect(realPathOf(path.join(linkedRoot, "notes", "missing", "file"))).toBe(path.join(fs.realpathSync(dotfiles), "notes", "missing", "file"));
  });
});

describe("the index and linked folders", () => {
  it("lists a linked skill folder that leaves the layer as an invalid entry that says why, and never reads it", () => {
    const { root, outside } = setup();
    fs.symlinkSync(path.join(outside, "stolen"), path.join(root, "evil"));
    fs.symlinkSync("/", path.join(root, "rootfs"));
    const index = SkillIndex.build(t.config);
    const evil = index.get(path.join(root, "evil"))!;
    expect(evil.status).toBe("invalid");
    expect(evil.loadable).toBe(false);
    expect(evil.diagnostics[0]!.code).toBe("link.outside-layer");
    expect(evil.diagnostics[0]!.message).toMatch(/outside its layer folder/);
    expect(evil.diagnostics[0]!.message).not.toContain(outside); // no host path outside the data home in a message
    expect(evil.description).toBe(""); // the other user's description is not shown
    expect(index.definitions("stolen")).toEqual([]);
    expect(index.get(path.join(root, "rootfs"))!.diagnostics[0]!.code).toBe("link.outside-layer");
    expect(index.definitions("pdf-tools")).toHaveLength(1);
  });

  it("does not read a SKILL.md that links outside its skill folder", () => {
    const { root, outside } = setup();
    const dir = path.join(root, "mirror");
    fs.mkdirSync(dir);
    fs.symlinkSync(path.join(outside, "stolen", "SKILL.md"), path.join(dir, "SKILL.md"));
    const index = SkillIndex.build(t.config);
    const e = index.get(dir)!;
    expect(e.status).toBe("invalid");
    expect(e.name).toBe("mirror");
    expect(e.description).toBe("");
    expect(e.diagnostics[0]!.message).toMatch(/SKILL\.md is a symbolic link to a file outside its skill folder/);
    // after a refresh of the file too (the watcher's path)
    index.refresh([path.join(dir, "SKILL.md")]);
    expect(index.get(dir)!.description).toBe("");
  });

  it("refresh of a link to / neither walks it nor hangs: the link becomes a refused entry at once", () => {
    const { root } = setup();
    const index = SkillIndex.build(t.config);
    const link = path.join(root, "rootfs");
    fs.symlinkSync("/", link);
    const t0 = Date.now();
    const change = index.refresh([link]);
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(change.added.map((e) => e.id)).toEqual([link]);
    fs.unlinkSync(link);
    expect(index.refresh([link]).removed.map((e) => e.id)).toEqual([link]);
  });
});

// Issue #35 items 1-2: the agent folder of the project is itself the link. It is judged against the project root;
// refused, it is one listed entry and is never walked, watched or polled (a link to / walked the host every 5 s).
describe("a project agent folder that is a link out of the project", () => {
  it("is one refused entry: nothing below it is walked or listed, and the watcher does not follow it", () => {
    const { outside } = setup();
    fs.mkdirSync(path.join(t.project, ".codex"));
    const codex = path.join(t.project, ".codex", "skills");
    fs.symlinkSync(outside, codex);
    fs.symlinkSync("/", path.join(t.project, ".agents"));
    const index = SkillIndex.build(t.config);
    expect(index.definitions("stolen")).toEqual([]);
    const refused = index.get(codex)!;
    expect(refused).toMatchObject({ name: ".codex/skills", status: "invalid", loadable: false, layer: "project" });
    expect(refused.diagnostics[0]).toMatchObject({ code: "link.layer-outside" });
    expect(refused.diagnostics[0]!.message).toMatch(/The project folder \.codex\/skills is a symbolic link .* outside the project/);
    expect(refused.diagnostics[0]!.message).not.toContain(outside);
    // a folder above the agent folder is the link: the same
    expect(index.get(path.join(t.project, ".agents", "skills"))!.diagnostics[0]!.code).toBe("link.layer-outside");
    expect(index.watchTargets()).not.toContain(codex);
    expect(index.watchTargets()).not.toContain(path.join(t.project, ".agents", "skills"));
    expect(index.definitions("pdf-tools")).toHaveLength(1);
    // the watcher's refresh of a path below it (or of the folder) finds nothing more
    index.refresh([path.join(codex, "stolen", "SKILL.md"), codex]);
    expect(index.definitions("stolen")).toEqual([]);
  });

  it("becomes a layer folder again once the link is replaced by a folder of the project, and refused again after", () => {
    const { outside } = setup();
    fs.mkdirSync(path.join(t.project, ".claude"));
    const claude = path.join(t.project, ".claude", "skills");
    fs.symlinkSync(outside, claude);
    const index = SkillIndex.build(t.config);
    fs.unlinkSync(claude);
    writeSkill(claude, "review");
    index.refresh([path.join(claude, "review", "SKILL.md")]);
    expect(index.get(claude)).toBeUndefined();
    expect(index.definitions("review")).toHaveLength(1);
    fs.rmSync(claude, { recursive: true });
    fs.symlinkSync(outside, claude);
    const change = index.refresh([claude]);
    expect(change.removed.map((e) => e.name)).toEqual(["review"]);
    expect(index.get(claude)!.diagnostics[0]!.code).toBe("link.layer-outside");
  });

  it("the data home's layer folders (enterprise, a plugin's, a console user's personal) are judged against the data home", () => {
    t = tempLayers("author-1");
    const outside = path.join(t.base, "elsewhere");
    writeSkill(outside, "stolen");
    fs.mkdirSync(path.join(t.home, "enterprise"), { recursive: true });
    fs.symlinkSync(outside, path.join(t.home, "enterprise", "skills"));
    fs.mkdirSync(path.join(t.home, "users", "author-1"), { recursive: true });
    fs.symlinkSync(outside, path.join(t.home, "users", "author-1", "skills"));
    fs.mkdirSync(path.join(t.home, "plugins", "tools"), { recursive: true });
    fs.symlinkSync("/", path.join(t.home, "plugins", "tools", "skills"));
    const index = SkillIndex.build(t.config);
    expect(index.definitions("stolen")).toEqual([]);
    const refused = index.entries().filter((e) => e.diagnostics[0]?.code === "link.layer-outside");
    expect(refused.map((e) => e.layer).sort()).toEqual(["enterprise", "personal", "plugin"]);
    expect(refused[0]!.diagnostics[0]!.message).toMatch(/The data home folder enterprise\/skills is a symbolic link .* outside the data home/);
  });

  it("a data home kept inside the project is out of bounds for the project's folders", () => {
    setup();
    const home = path.join(t.project, ".omniforge-data");
    fs.mkdirSync(path.join(home, "secrets"), { recursive: true });
    fs.writeFileSync(path.join(home, "secrets", "SKILL.md"), "---\nname: secrets\ndescription: Not a skill. Use never.\n---\n");
    fs.mkdirSync(path.join(t.project, ".gemini"));
    fs.symlinkSync("../.omniforge-data", path.join(t.project, ".gemini", "skills"));
    const index = SkillIndex.build(makeLayerConfig({ home, projectRoot: t.project }));
    expect(index.definitions("secrets")).toEqual([]);
    expect(index.get(path.join(t.project, ".gemini", "skills"))!.diagnostics[0]!.code).toBe("link.layer-outside");
    expect(index.definitions("pdf-tools")).toHaveLength(1);
  });

  it("a link inside the project, or the CLI's own personal folder linked to dotfiles, stays a layer folder", () => {
    setup();
    const shared = path.join(t.project, "shared-skills");
    writeSkill(shared, "house-style");
    fs.mkdirSync(path.join(t.project, ".claude"));
    fs.symlinkSync(shared, path.join(t.project, ".claude", "skills"));
    const dotfiles = path.join(t.base, "dotfiles");
    writeSkill(dotfiles, "notes");
    fs.symlinkSync(dotfiles, path.join(t.home, "skills"));
    const index = SkillIndex.build(t.config);
    expect(index.definitions("house-style")).toHaveLength(1);
    expect(index.definitions("notes")).toHaveLength(1);
  });
});

describe("links inside a skill folder", () => {
  /** The tester's four: a file outside, a folder outside, a dangling link and another folder outside. */
  function innerLinks(dir: string) {
    fs.mkdirSync(path.join(t.base, "dir"), { recursive: true });
    fs.symlinkSync("/etc/passwd", path.join(dir, "leak.txt"));
    fs.symlinkSync(path.join(t.base, "secrets"), path.join(dir, "secretsdir"));
    fs.symlinkSync(path.join(t.base, "x"), path.join(dir, "tgt.txt"));
    fs.symlinkSync(path.join(t.base, "dir"), path.join(dir, "outd"));
    return ["leak.txt", "secretsdir", "tgt.txt", "outd"].map((n) => path.join(dir, n));
  }
  const ids = (index: SkillIndex) => index.entries().map((e) => path.relative(projectSkills(), e.id));

  it("are the skill's files, never definitions of their own: in a fresh build and in every refresh the watcher makes", () => {
    const { root } = setup();
    const dir = writeSkill(root, "release-notes");
    const index = SkillIndex.build(t.config);
    const links = innerLinks(dir);
    // Fresh build (what the CLI's listing does too).
    expect(ids(SkillIndex.build(t.config))).toEqual(["pdf-tools", "release-notes"]);
    // The watcher hands over the links themselves...
    expect(index.refresh(links).added).toEqual([]);
    // ...or a folder inside the skill they came with.
    const refs = path.join(dir, "references");
    fs.mkdirSync(refs);
    innerLinks(refs);
    expect(index.refresh([refs]).added).toEqual([]);
    expect(ids(index)).toEqual(["pdf-tools", "release-notes"]);
  });

  it("stop being lone links once a SKILL.md makes their folder a skill, and are lone links again when it goes", () => {
    const { root } = setup();
    const dir = path.join(root, "drafts");
    fs.mkdirSync(dir);
    const index = SkillIndex.build(t.config);
    const links = innerLinks(dir);
    index.refresh(links);
    expect(ids(index)).toEqual(ids(SkillIndex.build(t.config))); // between skills: refused entries, as a fresh build
    expect(index.get(links[0]!)?.diagnostics[0]?.code).toBe("link.outside-layer");
    writeSkill(root, "drafts");
    index.refresh([path.join(dir, "SKILL.md")]);
    expect(ids(index)).toEqual(["drafts", "pdf-tools"]);
    fs.rmSync(path.join(dir, "SKILL.md"));
    index.refresh([path.join(dir, "SKILL.md")]);
    expect(ids(index)).toEqual(ids(SkillIndex.build(t.config)));
  });
});
