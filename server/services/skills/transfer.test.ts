import fs from "node:fs";
import path from "node:path";
import { strToU8, zipSync, type Zippable } from "fflate";
import { describe, expect, it } from "vitest";
import { readSkillFolder } from "../../runtime/registry";
import { describeNeeding, itNeeding, sharedDir, sharedFixture } from "../../test-support/needs";
import type { SkillServiceError } from "./errors";
import { createSkill } from "./lifecycle";
import { skillDirOf } from "./location";
import { exportZip, importArchive } from "./transfer";
import { skillMd, writeSkillOnDisk } from "./test-support/skills";
import { useSkillsTestHome } from "../../test-support/test-home";
import { listVersions } from "./history";
import { restoreVersion } from "./edit";
import { sha256 } from "./files";

const h = useSkillsTestHome();

const REAL = path.join(sharedDir, "fixtures", "real-skills", "anthropics__skills", "skill-creator");

function zipFolder(dir: string, top: string): Uint8Array {
  const tree: Zippable = {};
  for (const f of readSkillFolder(dir)) tree[`${top}/${f.path}`] = [f.data, { os: 3, attrs: ((f.executable ? 0o100755 : 0o100644) << 16) >>> 0 }];
  return zipSync(tree);
}

const refused = async (fn: () => unknown) => {
  try {
    await fn();
  } catch (e) {
    return e as SkillServiceError;
  }
  throw new Error("expected a refusal");
};

const layerFiles = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);

describe("import", () => {
  it("imports a zip with a top folder, validates it and records a version and an audit event", async () => {
    const a = h.ctx(h.actor("author"));
    const zip = zipSync({ "hello/SKILL.md": strToU8(skillMd("hello")), "hello/references/r.md": strToU8("# R\n") });
    const dry = await importArchive(a, { layer: "project", fileName: "hello.zip", data: zip, dryRun: true });
    expect(dry).toMatchObject({ folder: "hello", name: "hello", loadable: true, valid: true, imported: false });
    expect(fs.existsSync(skillDirOf(h.dataHome, dry.ref))).toBe(false);
    const r = await importArchive(a, { layer: "project", fileName: "hello.zip", data: zip });
    expect(r.imported).toBe(true);
    expect(fs.readFileSync(path.join(skillDirOf(h.dataHome, r.ref), "references/r.md"), "utf8")).toBe("# R\n");
    expect((await listVersions(h.db, r.ref))[0]).toMatchObject({ action: "import", hasSnapshot: true });
    expect(h.audit.events.at(-1)).toMatchObject({ type: "skill_imported", skill: "hello", layer: "project" });
    // Same folder again: refused, the first stays.
    expect((await refused(() => importArchive(a, { layer: "project", fileName: "hello.zip", data: zip }))).code).toBe("CONFLICT");
  });

  it("replaces an existing skill as a new version on request: the folder before is kept in the history and restorable", async () => {
    const a = h.ctx(h.actor("author"));
    await importArchive(a, { layer: "project", fileName: "v1.zip", data: zipSync({ "twice/SKILL.md": strToU8(skillMd("twice", "First text. Use it.")), "twice/references/old.md": strToU8("old\n") }) });
    const v2 = zipSync({ "twice/SKILL.md": strToU8(skillMd("twice", "Second text. Use it.")) });
    const dry = await importArchive(a, { layer: "project", fileName: "v2.zip", data: v2, dryRun: true });
    expect(dry.exists).toBe(true);
    const r = await importArchive(a, { layer: "project", fileName: "v2.zip", data: v2, replace: true });
    const dir = skillDirOf(h.dataHome, r.ref);
    expect(fs.readFileSync(path.join(dir, "SKILL.md"), "utf8")).toContain("Second text.");
    expect(fs.existsSync(path.join(dir, "references/old.md"))).toBe(false); // the archive's folder, not a mix
    const [now, before] = await listVersions(h.db, r.ref);
    expect(now).toMatchObject({ action: "import", message: "replaced with v2.zip" });
    expect(before).toMatchObject({ action: "save", message: "before replacing with v2.zip", hasSnapshot: true, hasContent: true });
    expect(h.audit.events.at(-1)).toMatchObject({ type: "skill_imported", skill: "twice", details: { replaced: true, previousVersionId: before!.id } });
    // History brings the first text back.
    await restoreVersion(a, before!.id, sha256(fs.readFileSync(path.join(dir, "SKILL.md"))));
    expect(fs.readFileSync(path.join(dir, "SKILL.md"), "utf8")).toContain("First text.");
  });

  it("a skill that breaks the spec but loads imports with warnings; one that cannot load is refused", async () => {
    const a = h.ctx(h.actor("author"));
    // Name differs from the folder and a vendor field: loads, with diagnostics.
    const lenient = zipSync({ "lenient/SKILL.md": strToU8(skillMd("other-name", "Works. Use it.", "argument-hint: x\n")) });
    const r = await importArchive(a, { layer: "project", fileName: "lenient.zip", data: lenient });
    expect(r.imported).toBe(true);
    expect(r.loadable).toBe(true);
    expect(r.diagnostics.length).toBeGreaterThan(0);
    const broken = zipSync({ "broken/SKILL.md": strToU8("no frontmatter here\n") });
    const err = await refused(() => importArchive(a, { layer: "project", fileName: "broken.zip", data: broken }));
    expect(err.code).toBe("BAD_REQUEST");
    expect(fs.existsSync(path.join(h.dataHome.projectRoot, ".omniforge/skills/broken"))).toBe(false);
  });

  it("refuses zip-slip, links, non-archives and a viewer, leaving nothing behind", async () => {
    const a = h.ctx(h.actor("author"));
    const root = path.join(h.dataHome.projectRoot, ".omniforge/skills");
    const before = layerFiles(root);
    const slip = zipSync({ "evil/SKILL.md": strToU8(skillMd("evil")), "evil/../../escape.txt": strToU8("x") });
    expect((await refused(() => importArchive(a, { layer: "project", fileName: "evil.zip", data: slip }))).details?.code).toBe("archive.path");
    const link = zipSync({ "ln/SKILL.md": strToU8(skillMd("ln")), "ln/passwd": [strToU8("/etc/passwd"), { os: 3, attrs: (0o120777 << 16) >>> 0 }] });
    expect((await refused(() => importArchive(a, { layer: "project", fileName: "ln.zip", data: link }))).details?.code).toBe("archive.link");
    expect((await refused(() => importArchive(a, { layer: "project", fileName: "x.zip", data: strToU8("not a zip") }))).code).toBe("BAD_REQUEST");
    const ok = zipSync({ "fine/SKILL.md": strToU8(skillMd("fine")) });
    expect((await refused(() => importArchive(h.ctx(h.actor("viewer")), { layer: "project", fileName: "fine.zip", data: ok }))).code).toBe("FORBIDDEN");
    expect(layerFiles(root)).toEqual(before);
    expect(fs.existsSync(path.join(h.dataHome.projectRoot, "escape.txt"))).toBe(false);
  });

  itNeeding(sharedFixture("fixtures/real-skills/anthropics__skills/skill-creator/SKILL.md"), "a real skill folder from anthropics/skills imports unchanged and loads", async () => {
    const a = h.ctx(h.actor("author"));
    const r = await importArchive(a, { layer: "project", fileName: "skill-creator.zip", data: zipFolder(REAL, "skill-creator") });
    expect(r).toMatchObject({ imported: true, loadable: true, name: "skill-creator" });
    const original = readSkillFolder(REAL);
    const copied = readSkillFolder(skillDirOf(h.dataHome, r.ref));
    expect(copied.map((f) => [f.path, Buffer.from(f.data).toString("base64"), f.executable])).toEqual(
      original.map((f) => [f.path, Buffer.from(f.data).toString("base64"), f.executable]),
    );
  });
});

const REAL_ROOT = path.join(sharedDir, "fixtures", "real-skills");
const realSkills = fs.existsSync(REAL_ROOT)
  ? fs
      .readdirSync(REAL_ROOT)
      .filter((c) => fs.statSync(path.join(REAL_ROOT, c)).isDirectory())
      .flatMap((c) => fs.readdirSync(path.join(REAL_ROOT, c)).map((s) => path.join(REAL_ROOT, c, s)))
      .filter((d) => fs.existsSync(path.join(d, "SKILL.md")))
  : [];

describeNeeding(sharedFixture("fixtures/real-skills"), "every real skill folder of the fixtures", () => {
  it("imports unchanged, loads, and exports to the same files", async () => {
    const a = h.ctx(h.actor("author"));
    const loaded: string[] = [];
    for (const dir of realSkills) {
      const folder = path.basename(dir);
      const collection = path.basename(path.dirname(dir));
      const r = await importArchive(a, { layer: "project", fileName: `${folder}.zip`, data: zipFolder(dir, folder), folder: `${collection}--${folder}`.replace(/[^A-Za-z0-9._-]/g, "-").slice(0, 120) });
      expect(r.imported, dir).toBe(true);
      expect(r.loadable, dir).toBe(true);
      const norm = (files: ReturnType<typeof readSkillFolder>) => files.map((f) => [f.path, Buffer.from(f.data).toString("base64"), f.executable]);
      expect(norm(readSkillFolder(skillDirOf(h.dataHome, r.ref))), dir).toEqual(norm(readSkillFolder(dir)));
      const out = exportZip(a, r.ref);
      const again = await importArchive(a, { layer: "personal", fileName: out.fileName, data: out.data });
      expect(norm(readSkillFolder(skillDirOf(h.dataHome, again.ref))), dir).toEqual(norm(readSkillFolder(dir)));
      loaded.push(`${collection}/${folder}`);
    }
    console.log(`[real skills] ${loaded.length} imported, loaded and round-tripped: ${loaded.join(", ")}`);
  });
});

describe("export", () => {
  it("exports a .zip with a top folder named like the skill; re-importing gives the same files", async () => {
    const a = h.ctx(h.actor("author"));
    const { ref } = await createSkill(a, { layer: "project", name: "round-trip", description: "Round trips. Use to test.", template: "with-script" });
    writeSkillOnDisk(skillDirOf(h.dataHome, ref), { "assets/blob.bin": new Uint8Array([0, 159, 146, 150]) });
    const out = exportZip(h.ctx(h.actor("viewer")), ref);
    expect(out.fileName).toBe("round-trip.zip");
    const back = await importArchive(a, { layer: "personal", fileName: out.fileName, data: out.data });
    expect(back.ref).toMatchObject({ layer: "personal", skill: "round-trip", ownerId: "author-1" });
    const norm = (dir: string) => readSkillFolder(dir).map((f) => [f.path, Buffer.from(f.data).toString("hex"), f.executable]);
    expect(norm(skillDirOf(h.dataHome, back.ref))).toEqual(norm(skillDirOf(h.dataHome, ref)));
  });
});
