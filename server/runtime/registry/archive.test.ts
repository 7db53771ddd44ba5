import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { gzipSync, strToU8, zipSync, type Zippable } from "fflate";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ArchiveError, DEFAULT_ARCHIVE_LIMITS, extractArchive, inspectArchive, safeEntryPath } from "./archive";
import { importSkill, installSkill, InstallError } from "./install";
import { makeLayerConfig, writableRoot } from "./layers";
import { resolve } from "./resolve";
import { SkillIndex } from "./skill-index";
import { frontmatter, listTree, tempLayers, type TempLayers, writeSkill } from "./test-support/registry";

let t: TempLayers;
beforeEach(() => {
  t = tempLayers();
});
afterEach(() => t.cleanup());

const skillMd = (name: string) => strToU8(frontmatter({ name }));
const pluginsTree = () => listTree(path.join(t.home, "plugins"));

async function codeOf(fn: () => unknown): Promise<string> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof ArchiveError) return e.code;
    if (e instanceof InstallError) return e.code;
    throw e;
  }
  return "accepted";
}

/** Writes an archive to disk and expects install to refuse it with `code`, leaving nothing behind. */
async function expectRefusedInstall(fileName: string, bytes: Uint8Array, code: string) {
  const file = path.join(t.base, fileName);
  fs.writeFileSync(file, bytes);
  expect(await codeOf(() => installSkill(file, t.config))).toBe(code);
  expect(pluginsTree()).toEqual([]);
}

describe("entry names", () => {
  it("refuses traversal, absolute paths, drive letters and backslashes", async () => {
    expect(safeEntryPath("./a/b.md")).toBe("a/b.md");
    for (const bad of ["../evil", "a/../../evil", "/etc/passwd", "C:/x", "c:evil", "a\\..\\b", "x\0y"]) {
      expect(() => safeEntryPath(bad), bad).toThrow(ArchiveError);
    }
  });

  it("refuses names with control or direction characters, which listings and terminals would act on", () => {
    for (const bad of ["s/new\nline.txt", "s/esc\u001b[31m.txt", "s/\u202etxt.exe", "s/tab\there", "s/del\u007f", "s/c1\u0085", "s/\u2028sep"]) {
      expect(() => safeEntryPath(bad), JSON.stringify(bad)).toThrow(/control or direction character/);
    }
    expect(safeEntryPath("s/<img src=x>.md")).toBe("s/<img src=x>.md"); // odd, but plain text: the pages escape it
    expect(safeEntryPath("s/café ünïcode.md")).toBe("s/café ünïcode.md");
  });
});

describe("zip safety (each refused, nothing written)", () => {
  it("zip-slip with ..", async () => {
    await expectRefusedInstall("slip.zip", zipSync({ "SKILL.md": skillMd("slip"), "../evil.sh": strToU8("x") }), "archive.path");
    expect(fs.existsSync(path.join(t.home, "evil.sh"))).toBe(false);
  });

  it("absolute path and backslash names", async () => {
    await expectRefusedInstall("abs.zip", zipSync({ "SKILL.md": skillMd("abs"), "/abs/evil": strToU8("x") }), "archive.path");
    await expectRefusedInstall("bs.zip", zipSync({ "SKILL.md": skillMd("bs"), "..\\evil": strToU8("x") }), "archive.path");
  });

  it("a symlink entry (fflate-made and made by the real zip tool)", async () => {
    const link: Zippable = { "SKILL.md": skillMd("ln"), "link": [strToU8("/etc/passwd"), { os: 3, attrs: (0o120777 << 16) >>> 0 }] };
    await expectRefusedInstall("link.zip", zipSync(link), "archive.link");

    const src = path.join(t.base, "src");
    writeSkill(src, "ln2");
    fs.symlinkSync("/etc/passwd", path.join(src, "ln2", "passwd"));
    const out = path.join(t.base, "real-link.zip");
    execFileSync("zip", ["-q", "-r", "-y", out, "ln2"], { cwd: src });
    expect(await codeOf(() => installSkill(out, t.config))).toBe("archive.link");
    expect(pluginsTree()).toEqual([]);
  });

  it("too many files", async () => {
    const files: Zippable = { "SKILL.md": skillMd("many") };
    for (let i = 0; i < DEFAULT_ARCHIVE_LIMITS.maxFiles; i++) files[`references/f${i}.md`] = strToU8(`${i}`);
    await expectRefusedInstall("many.zip", zipSync(files, { level: 0 }), "archive.too-many-files");
  });

  it("a file over the per-file limit, and a total over the total limit", async () => {
    const big = new Uint8Array(DEFAULT_ARCHIVE_LIMITS.maxFileBytes + 1).map((_, i) => (i * 2654435761) >>> 24);
    await expectRefusedInstall("big.zip", zipSync({ "SKILL.md": skillMd("big"), "assets/big.bin": big }, { level: 0 }), "archive.file-too-large");
    const small = { ...DEFAULT_ARCHIVE_LIMITS, maxTotalBytes: 1000 };
    const zip = zipSync({ "SKILL.md": skillMd("tot"), "a.txt": new Uint8Array(600), "b.txt": new Uint8Array(600) }, { level: 0 });
    expect(await codeOf(() => inspectArchive(zip, "zip", small))).toBe("archive.too-large");
  });

  it("a zip bomb (compression ratio) is refused from the directory, before inflating", async () => {
    const zeros = new Uint8Array(8 * 1024 * 1024);
    const zip = zipSync({ "SKILL.md": skillMd("bomb"), "assets/zeros.bin": zeros }, { level: 9 });
    expect(zip.length).toBeLessThan(100_000);
    await expectRefusedInstall("bomb.zip", zip, "archive.ratio");
  });

  it("a zip bomb spread over many files, each under the per-file threshold, is refused by the whole archive's ratio", async () => {
    const files: Zippable = { "SKILL.md": skillMd("spread") };
    for (let i = 0; i < 20; i++) files[`assets/zeros-${i}.bin`] = new Uint8Array(1024 * 1024 - 1);
    const zip = zipSync(files, { level: 9 });
    expect(zip.length).toBeLessThan(100_000);
    await expectRefusedInstall("spread.zip", zip, "archive.ratio");
  });

  it("more than one skill root, or none", async () => {
    await expectRefusedInstall("two.zip", zipSync({ "a/SKILL.md": skillMd("a"), "b/SKILL.md": skillMd("b") }), "archive.no-skill");
    await expectRefusedInstall("none.zip", zipSync({ "README.md": strToU8("hi") }), "archive.no-skill");
  });

  it("a header that under-declares a file's size (the data would be cut) fails the CRC check", async () => {
    const content = strToU8("x".repeat(5000));
    const zip = zipSync({ "SKILL.md": skillMd("lie"), "big.txt": content });
    // Patch the uncompressed size of big.txt in the central directory (and local header) to 100 bytes.
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    let patched = 0;
    for (let o = 0; o + 4 < zip.length; o++) {
      const sig = view.getUint32(o, true);
      if (sig === 0x02014b50 && view.getUint32(o + 24, true) === 5000) (view.setUint32(o + 24, 100, true), patched++);
      if (sig === 0x04034b50 && view.getUint32(o + 22, true) === 5000) (view.setUint32(o + 22, 100, true), patched++);
    }
    expect(patched).toBe(2);
    expect(await codeOf(() => extractArchive(zip, "zip"))).toBe("archive.corrupt");
  });

  it("a damaged file that is not an archive", async () => {
    const file = path.join(t.base, "junk.zip");
    fs.writeFileSync(file, "this is not a zip");
    expect(await codeOf(() => installSkill(file, t.config))).toBe("install.format");
    expect(await codeOf(() => inspectArchive(strToU8("PK\x03\x04garbage"), "zip"))).toBe("archive.corrupt");
  });
});

describe("tar.gz safety", () => {
  it("zip-slip member names made by GNU tar -P are refused", async () => {
    const src = path.join(t.base, "src", "skill");
    writeSkill(path.dirname(src), "skill");
    fs.writeFileSync(path.join(t.base, "src", "evil.txt"), "x");
    const out = path.join(t.base, "slip.tar.gz");
    execFileSync("tar", ["-cPzf", out, "SKILL.md", "../evil.txt"], { cwd: src });
    expect(execFileSync("tar", ["-tzf", out], { encoding: "utf8" })).toContain("../evil.txt");
    expect(await codeOf(() => installSkill(out, t.config))).toBe("archive.path");
    expect(pluginsTree()).toEqual([]);
  });

  it("symlinks and hard links are refused", async () => {
    const src = path.join(t.base, "src");
    writeSkill(src, "linky");
    fs.symlinkSync("/etc", path.join(src, "linky", "etc"));
    const out = path.join(t.base, "link.tar.gz");
    execFileSync("tar", ["-czf", out, "linky"], { cwd: src });
    expect(await codeOf(() => installSkill(out, t.config))).toBe("archive.link");
    fs.unlinkSync(path.join(src, "linky", "etc"));
    fs.linkSync(path.join(src, "linky", "SKILL.md"), path.join(src, "linky", "hard.md"));
    execFileSync("tar", ["-czf", out, "linky"], { cwd: src });
    expect(await codeOf(() => installSkill(out, t.config))).toBe("archive.link");
    expect(pluginsTree()).toEqual([]);
  });

  it("a gzip bomb stops while decompressing", async () => {
    const src = path.join(t.base, "src");
    writeSkill(src, "gzb");
    fs.writeFileSync(path.join(src, "gzb", "zeros.bin"), new Uint8Array(5 * 1024 * 1024));
    const out = path.join(t.base, "gzb.tar.gz");
    execFileSync("tar", ["-czf", out, "gzb"], { cwd: src });
    expect(await codeOf(() => installSkill(out, t.config))).toBe("archive.ratio");
    // Over the total budget: stopped by size before the whole stream is inflated.
    const limits = { ...DEFAULT_ARCHIVE_LIMITS, maxTotalBytes: 1024 * 1024, maxRatio: 1e9 };
    expect(await codeOf(() => inspectArchive(new Uint8Array(fs.readFileSync(out)), "tar.gz", limits))).toBe("archive.too-large");
    // And a plain gzip of something that is not a tar is reported as damaged, not crashed on.
    expect(await codeOf(() => inspectArchive(gzipSync(strToU8("hello")), "tar.gz"))).toBe("archive.corrupt");
    expect(pluginsTree()).toEqual([]);
  });

  it("reads pax and GNU long names", async () => {
    const src = path.join(t.base, "src");
    const long = "references/" + "deep-folder-name/".repeat(8) + "a-very-long-file-name-that-needs-more-than-one-hundred-bytes.md";
    writeSkill(src, "longnames");
    fs.mkdirSync(path.join(src, "longnames", path.dirname(long)), { recursive: true });
    fs.writeFileSync(path.join(src, "longnames", long), "deep\n");
    for (const format of ["pax", "gnu"]) {
      const out = path.join(t.base, `${format}.tar.gz`);
      execFileSync("tar", [`--format=${format}`, "-czf", out, "longnames"], { cwd: src });
      const x = await extractArchive(new Uint8Array(fs.readFileSync(out)), "tar.gz");
      expect(x.root).toBe("longnames/");
      expect(new TextDecoder().decode(x.contents.get(long))).toBe("deep\n");
    }
  });
});

describe("install", () => {
  it("from a folder, into <home>/plugins/<skill>/skills/<skill> with a manifest", async () => {
    const src = writeSkill(path.join(t.base, "src"), "folder-skill", { scripts: { "run.sh": "#!/bin/sh\necho ok\n" } });
    const r = await installSkill(src, t.config, { now: () => new Date("2026-04-01T00:00:00Z") });
    expect(r).toMatchObject({ name: "folder-skill", plugin: "folder-skill", format: "folder", files: 2, replaced: false });
    expect(fs.statSync(path.join(r.dir, "scripts", "run.sh")).mode & 0o111).not.toBe(0);
    const manifest = JSON.parse(fs.readFileSync(path.join(r.pluginDir, "plugin.json"), "utf8"));
    expect(manifest).toEqual({ name: "folder-skill", installedAt: "2026-04-01T00:00:00.000Z", source: src });
    const w = resolve(SkillIndex.build(t.config), "folder-skill@folder-skill").active;
    expect(w?.layer).toBe("plugin");
    expect(w?.hasScripts).toBe(true);
    // Installing again needs force.
    expect(await codeOf(() => installSkill(src, t.config))).toBe("install.exists");
    expect((await installSkill(src, t.config, { force: true })).replaced).toBe(true);
    expect(pluginsTree().filter((p) => p.includes(".staging") || p.includes(".trash"))).toEqual([]);
  });

  it("makes a data home that does not exist yet private (0700), for an install and an import into a home layer", async () => {
    const src = writeSkill(path.join(t.base, "src"), "first-skill");
    for (const [home, write] of [
      [path.join(t.base, "fresh-home"), (config: typeof t.config) => installSkill(src, config)],
      [path.join(t.base, "other-home"), (config: typeof t.config) => importSkill(src, config, "enterprise")],
    ] as const) {
      const config = makeLayerConfig({ home, projectRoot: t.project });
      await write(config);
      expect([home, fs.statSync(home).mode & 0o777]).toEqual([home, 0o700]);
    }
  });

  it("from a .zip with one top folder (and macOS junk skipped), under a chosen plugin name", async () => {
    const zip = zipSync({
      "zipped/SKILL.md": skillMd("zipped"),
      "zipped/references/guide.md": strToU8("# guide\n"),
      "__MACOSX/zipped/._SKILL.md": strToU8("junk"),
    });
    const file = path.join(t.base, "zipped.zip");
    fs.writeFileSync(file, zip);
    const r = await installSkill(file, t.config, { plugin: "acme-tools" });
    expect(r).toMatchObject({ name: "zipped", plugin: "acme-tools", format: "zip", files: 2 });
    expect(r.skipped).toEqual(["__MACOSX/zipped/._SKILL.md"]);
    expect(listTree(path.join(t.home, "plugins"))).toEqual([
      "acme-tools",
      "acme-tools/plugin.json",
      "acme-tools/skills",
      "acme-tools/skills/zipped",
      "acme-tools/skills/zipped/SKILL.md",
      "acme-tools/skills/zipped/references",
      "acme-tools/skills/zipped/references/guide.md",
    ]);
  });

  it("from a .tar.gz made by GNU tar (SKILL.md at the top)", async () => {
    const src = writeSkill(path.join(t.base, "src"), "tarred", { scripts: { "go.sh": "echo go\n" } });
    const file = path.join(t.base, "tarred.tar.gz");
    execFileSync("tar", ["-czf", file, "."], { cwd: src });
    const r = await installSkill(file, t.config);
    expect(r).toMatchObject({ name: "tarred", format: "tar.gz", files: 2 });
    expect(fs.readFileSync(path.join(r.dir, "scripts", "go.sh"), "utf8")).toBe("echo go\n");
    expect(fs.statSync(path.join(r.dir, "scripts", "go.sh")).mode & 0o100).not.toBe(0);
  });

  it("refuses a skill whose SKILL.md does not load, leaving nothing", async () => {
    const file = path.join(t.base, "bad.zip");
    fs.writeFileSync(file, zipSync({ "SKILL.md": strToU8("---\nname: [\n---\n") }));
    expect(await codeOf(() => installSkill(file, t.config))).toBe("install.invalid");
    expect(pluginsTree()).toEqual([]);
  });

  it("refuses a named pipe or a device as the source at once (neither is read), leaving nothing", async () => {
    const fifo = path.join(t.base, "skill.zip");
    execFileSync("mkfifo", [fifo]);
    await expect(installSkill(fifo, t.config)).rejects.toThrow(`refused ${fifo} is a named pipe, not a regular file: give a skill folder or a .zip, .tar or .tar.gz archive`);
    expect(await codeOf(() => installSkill("/dev/zero", t.config))).toBe("install.source");
    expect(pluginsTree()).toEqual([]);
  });

  it("refuses a folder with a symlink that leaves it", async () => {
    const src = writeSkill(path.join(t.base, "src"), "leaky");
    fs.symlinkSync("/etc/hostname", path.join(src, "host"));
    expect(await codeOf(() => installSkill(src, t.config))).toBe("install.copy");
    expect(pluginsTree()).toEqual([]);
  });
});

describe("import (the console's upload) into any layer", () => {
  it("uploaded zip bytes go to <layer root>/<name>, atomically, with diagnostics checked in place", async () => {
    const bytes = zipSync({ "up/SKILL.md": skillMd("uploaded"), "up/references/a.md": strToU8("a\n") });
    const r = await importSkill({ bytes, fileName: "up.zip" }, t.config, "project");
    const target = path.join(writableRoot(t.config, "project"), "uploaded");
    expect(r).toMatchObject({ name: "uploaded", layer: "project", dir: target, format: "zip", files: 2, replaced: false });
    expect(r.diagnostics.filter((d) => d.code.includes("name"))).toEqual([]);
    expect(listTree(writableRoot(t.config, "project"))).toEqual(["uploaded", "uploaded/SKILL.md", "uploaded/references", "uploaded/references/a.md"]);
    expect(await codeOf(() => importSkill({ bytes, fileName: "up.zip" }, t.config, "project"))).toBe("install.exists");
    expect((await importSkill({ bytes, fileName: "up.zip" }, t.config, "project", { force: true })).replaced).toBe(true);
    expect(listTree(writableRoot(t.config, "project")).filter((p) => p.startsWith("."))).toEqual([]);
  });

  it("a refused upload leaves the layer untouched, and the plugin layer gets a manifest", async () => {
    const bad = zipSync({ "SKILL.md": skillMd("x"), "../../escape": strToU8("x") });
    expect(await codeOf(() => importSkill({ bytes: bad, fileName: "bad.zip" }, t.config, "enterprise"))).toBe("archive.path");
    expect(listTree(path.join(t.home, "enterprise"))).toEqual([]);
    const good = zipSync({ "SKILL.md": skillMd("plug") });
    const r = await importSkill({ bytes: good, fileName: "plug.zip" }, t.config, "plugin", { plugin: "vendor" });
    expect(r).toMatchObject({ layer: "plugin", plugin: "vendor", name: "plug" });
    expect(JSON.parse(fs.readFileSync(path.join(t.home, "plugins", "vendor", "plugin.json"), "utf8")).source).toBe("upload:plug.zip");
  });
});
