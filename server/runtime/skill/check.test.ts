// Hostile and unusual files: nothing a SKILL.md contains may crash the checker, and each problem comes back as a
// diagnostic with a stable code and a position.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkSkillDir, checkSkillDirWithStat, checkSkillSource, findSkillDirs } from "./index";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-skill-check-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

let n = 0;
function skillDir(name: string, content?: string | Buffer, fileName = "SKILL.md"): string {
  const dir = path.join(tmp, String(n++), name);
  fs.mkdirSync(dir, { recursive: true });
  if (content !== undefined) fs.writeFileSync(path.join(dir, fileName), content);
  return dir;
}

const MINIMAL = "---\nname: my-skill\ndescription: Does a thing. Use when asked.\n---\n# Body\n";
const codes = (c: { diagnostics: { code: string }[] }) => c.diagnostics.map((d) => d.code);

describe("checkSkillDir", () => {
  it("loads a minimal skill, with digest, body and body start line", () => {
    const dir = skillDir("my-skill", MINIMAL);
    const c = checkSkillDir(dir);
    expect(c.valid).toBe(true);
    expect(c.loadable).toBe(true);
    expect(c.file).toBe(path.join(dir, "SKILL.md"));
    expect(c.digest).toBe(createHash("sha256").update(MINIMAL).digest("hex"));
    expect(c.properties).toEqual({ name: "my-skill", description: "Does a thing. Use when asked." });
    expect(c.body).toBe("# Body\n");
    expect(c.bodyStartLine).toBe(5);
  });

  it("reads CRLF files: same properties, body with LF, no diagnostics", () => {
    const c = checkSkillDir(skillDir("my-skill", MINIMAL.replace(/\n/g, "\r\n")));
    expect(c.diagnostics).toEqual([]);
    expect(c.properties?.description).toBe("Does a thing. Use when asked.");
    expect(c.body).toBe("# Body\n");
  });

  it("reports a BOM (error under spec, warning under omniforge) and still loads", () => {
    const dir = skillDir("my-skill", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(MINIMAL)]));
    const spec = checkSkillDir(dir);
    expect(codes(spec)).toEqual(["encoding.bom"]);
    expect(spec.valid).toBe(false);
    expect(spec.loadable).toBe(true);
    const omni = checkSkillDir(dir, { rules: "omniforge" });
    expect(omni.valid).toBe(true);
    expect(omni.diagnostics[0]).toMatchObject({ code: "encoding.bom", severity: "warning" });
  });

  it("refuses Latin-1 bytes with the position of the bad byte", () => {
    const bytes = Buffer.from("---\nname: my-skill\ndescription: Caf\xe9 menu.\n---\n", "latin1");
    const c = checkSkillDir(skillDir("my-skill", bytes));
    expect(c.loadable).toBe(false);
    expect(c.diagnostics).toHaveLength(1);
    expect(c.diagnostics[0]).toMatchObject({ code: "encoding.utf8", severity: "error", line: 3, column: 17 });
    expect(c.diagnostics[0]!.message).toContain("0xE9");
  });

  it("reports an empty file as missing frontmatter", () => {
    const c = checkSkillDir(skillDir("my-skill", ""));
    expect(codes(c)).toEqual(["frontmatter.missing"]);
    expect(c.diagnostics[0]!.message).toMatch(/empty/);
    expect(c.loadable).toBe(false);
  });

  it("reports a directory named SKILL.md without throwing", () => {
    const dir = skillDir("my-skill");
    fs.mkdirSync(path.join(dir, "SKILL.md"));
    const c = checkSkillDir(dir);
    expect(codes(c)).toEqual(["file.not-a-file"]);
    expect(c.loadable).toBe(false);
  });

  it("reports a missing folder and a folder without SKILL.md", () => {
    expect(codes(checkSkillDir(path.join(tmp, "does-not-exist")))).toEqual(["file.missing"]);
    const c = checkSkillDir(skillDir("empty-folder"));
    expect(codes(c)).toEqual(["file.missing"]);
    expect(c.file).toBeNull();
  });

  it("refuses a file over 1 MiB without parsing it", () => {
    const big = MINIMAL + "x".repeat(2 * 1024 * 1024);
    const c = checkSkillDir(skillDir("my-skill", big));
    expect(codes(c)).toEqual(["file.too-large"]);
    expect(c.loadable).toBe(false);
    expect(c.raw).toBeNull();
    expect(codes(checkSkillSource(big, { dir: "/x/my-skill" }))).toEqual(["file.too-large"]);
  });

  it("refuses a SKILL.md symlink that leaves the skill folder", () => {
    const outside = path.join(tmp, "outside.md");
    fs.writeFileSync(outside, MINIMAL);
    const dir = skillDir("my-skill");
    fs.symlinkSync(outside, path.join(dir, "SKILL.md"));
    expect(codes(checkSkillDir(dir))).toEqual(["file.symlink-escape"]);
  });

  it("follows a SKILL.md symlink that stays inside the folder", () => {
    const dir = skillDir("my-skill");
    fs.writeFileSync(path.join(dir, "real.md"), MINIMAL);
    fs.symlinkSync("real.md", path.join(dir, "SKILL.md"));
    expect(checkSkillDir(dir).valid).toBe(true);
  });

  it("counts a referenced file only when it exists inside the folder, and says a link that leaves it leaves it (real paths)", () => {
    const outside = path.join(tmp, "secret.md");
    fs.writeFileSync(outside, "x");
    const dir = skillDir("my-skill", "---\nname: my-skill\ndescription: d\n---\n[a](references/a.md) [s](references/secret.md) [l](references/inner.md) [d](docs/deep/x.md)\n");
    fs.mkdirSync(path.join(dir, "references"));
    fs.mkdirSync(path.join(dir, "docs/deep"), { recursive: true });
    fs.writeFileSync(path.join(dir, "references/a.md"), "a");
    fs.writeFileSync(path.join(dir, "docs/deep/x.md"), "x");
    fs.symlinkSync(outside, path.join(dir, "references/secret.md"));
    fs.symlinkSync("a.md", path.join(dir, "references/inner.md"));
    const found = checkSkillDir(dir).diagnostics;
    expect(found.filter((d) => d.code === "body.missing-reference")).toEqual([]);
    const escapes = found.filter((d) => d.code === "body.path-escape");
    expect(escapes.map((d) => [d.severity, d.message])).toEqual([["warning", expect.stringMatching(/^"references\/secret\.md" is a symbolic link .* leads outside the skill folder/)]]);
    // Under omniforge an escape is an error, as ../ is: the file tools refuse it.
    expect(checkSkillDir(dir, { rules: "omniforge" }).diagnostics.find((d) => d.code === "body.path-escape")?.severity).toBe("error");
  });

  it("says a reference leaves the folder through a linked folder, judged against the skill's real path", () => {
    const elsewhere = path.join(tmp, "elsewhere-docs");
    fs.mkdirSync(elsewhere, { recursive: true });
    fs.writeFileSync(path.join(elsewhere, "guide.md"), "x");
    const real = skillDir("linked-root", "---\nname: linked-root\ndescription: d\nhooks:\n  pre: refs/run.sh\n---\nRead [g](refs/guide.md) and [o](own/a.md).\n");
    fs.mkdirSync(path.join(real, "own"));
    fs.writeFileSync(path.join(real, "own/a.md"), "a");
    fs.symlinkSync(elsewhere, path.join(real, "refs"));
    fs.writeFileSync(path.join(elsewhere, "run.sh"), "true\n");
    // The skill reached through a link of its own: its real path is what a link is judged against.
    const via = path.join(tmp, "via-link");
    fs.symlinkSync(real, via);
    for (const dir of [real, via]) {
      const c = checkSkillDir(dir, { rules: "omniforge" });
      expect(c.diagnostics.filter((d) => d.code === "body.path-escape").map((d) => d.message)).toEqual([expect.stringContaining('"refs/guide.md" is a symbolic link')]);
      expect(c.diagnostics.find((d) => d.code === "hooks.path")?.message).toContain('hooks.pre "refs/run.sh" is a symbolic link leading outside the skill folder');
      expect(codes(c)).not.toContain("body.missing-reference");
    }
  });

  it("gives the same diagnostics from a walk's folder listings as from the file system", () => {
    const outside = path.join(tmp, "secret2.md");
    fs.writeFileSync(outside, "x");
    const body =
      "[a](references/a.md) [s](references/secret.md) [l](references/inner.md) [d](docs/deep/x.md) [m](references/none.md)\n" +
      "Run scripts/run.sh and scripts/gone.sh; see assets/ and [f](docs/deep) and [n](nodir/x.md) and [c](References/A.md)\n";
    const dir = skillDir("my-skill", `---\nname: my-skill\ndescription: d\n---\n${body}`);
    fs.mkdirSync(path.join(dir, "references"));
    fs.mkdirSync(path.join(dir, "docs/deep"), { recursive: true });
    fs.mkdirSync(path.join(dir, "scripts"));
    fs.writeFileSync(path.join(dir, "references/a.md"), "a");
    fs.writeFileSync(path.join(dir, "docs/deep/x.md"), "x");
    fs.writeFileSync(path.join(dir, "scripts/run.sh"), "true\n");
    fs.symlinkSync(outside, path.join(dir, "references/secret.md"));
    fs.symlinkSync("a.md", path.join(dir, "references/inner.md"));
    const listings = new Map<string, fs.Dirent[]>();
    expect(findSkillDirs(path.dirname(dir), { listings })).toEqual([dir]);
    expect([...listings.keys()].sort()).toEqual([dir, ...["docs", "docs/deep", "references", "scripts"].map((d) => path.join(dir, d))]);
    for (const rules of ["spec", "omniforge"] as const) {
      const fromDisk = checkSkillDir(dir, { rules });
      expect(checkSkillDir(dir, { rules, listings })).toEqual(fromDisk);
      expect(codes(fromDisk).filter((c) => c === "body.missing-reference")).toHaveLength(4); // none, gone, nodir, References/A
      expect(codes(fromDisk).filter((c) => c === "body.path-escape")).toHaveLength(1); // secret
    }
  });

  it("answers lookups in a listed folder from the listing (a snapshot of the walk, no stat per reference)", () => {
    const dir = skillDir("my-skill", "---\nname: my-skill\ndescription: d\n---\nSee [a](references/a.md).\n");
    fs.mkdirSync(path.join(dir, "references"));
    fs.writeFileSync(path.join(dir, "references/a.md"), "a");
    const listings = new Map<string, fs.Dirent[]>();
    findSkillDirs(dir, { listings });
    fs.rmSync(path.join(dir, "references/a.md"));
    expect(codes(checkSkillDir(dir, { listings }))).toEqual([]);
    expect(codes(checkSkillDir(dir))).toEqual(["body.missing-reference"]);
  });

  it("checkSkillDirWithStat returns the size, mtime and ctime of the file it read, and null when the careful path ran", () => {
    const dir = skillDir("my-skill", MINIMAL);
    const st = fs.statSync(path.join(dir, "SKILL.md"));
    const read = checkSkillDirWithStat(dir);
    expect(read.stat).toEqual({ mtimeMs: st.mtimeMs, size: st.size, ctimeMs: st.ctimeMs });
    expect(read.check).toEqual(checkSkillDir(dir));
    const linked = skillDir("my-skill", undefined);
    fs.writeFileSync(path.join(linked, "real.md"), MINIMAL);
    fs.symlinkSync("real.md", path.join(linked, "SKILL.md"));
    expect(checkSkillDirWithStat(linked).stat).toBeNull();
    expect(checkSkillDirWithStat(linked).check.valid).toBe(true);
  });

  it("checkFiles: false skips the lookups; only missing-file warnings change, never validity", () => {
    const dir = skillDir("my-skill", "---\nname: my-skill\ndescription: d\n---\nRun scripts/gone.py, see [x](../out.md)\n");
    const full = checkSkillDir(dir, { rules: "omniforge" });
    const quick = checkSkillDir(dir, { rules: "omniforge", checkFiles: false });
    expect(codes(full)).toEqual(["body.missing-reference", "body.path-escape"]);
    expect(codes(quick)).toEqual(["body.path-escape"]);
    expect([quick.valid, quick.loadable]).toEqual([full.valid, full.loadable]);
  });

  it("digest: false leaves the digest empty and changes nothing else (a validation that prints none skips hashing)", () => {
    const dir = skillDir("my-skill", "---\nname: my-skill\ndescription: d\n---\nRun scripts/gone.py, see [x](../out.md)\n");
    const full = checkSkillDir(dir, { rules: "spec" });
    const unhashed = checkSkillDir(dir, { rules: "spec", digest: false });
    expect(full.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(unhashed.digest).toBe("");
    expect({ ...unhashed, digest: full.digest }).toEqual(full);
    // The careful path (a lowercase skill.md) honours it too.
    const lower = skillDir("lower", MINIMAL.replace("my-skill", "lower"), "skill.md");
    expect(checkSkillDir(lower, { digest: false }).digest).toBe("");
    expect(checkSkillDir(lower).digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it("accepts lowercase skill.md: spec error, omniforge warning, loadable in both", () => {
    const dir = skillDir("my-skill", MINIMAL, "skill.md");
    const spec = checkSkillDir(dir);
    expect(spec.file).toBe(path.join(dir, "skill.md"));
    expect(codes(spec)).toEqual(["file.name-case"]);
    expect(spec.valid).toBe(false);
    expect(spec.loadable).toBe(true);
    expect(checkSkillDir(dir, { rules: "omniforge" }).valid).toBe(true);
  });

  it("stops a billion-laughs file quickly with a diagnostic", () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++) {
      const prev = String.fromCharCode(96 + i);
      const cur = String.fromCharCode(97 + i);
      lines.push(`${cur}: &${cur} [${Array(9).fill(`*${prev}`).join(",")}]`);
    }
    const text = `---\nname: my-skill\ndescription: x\n${lines.join("\n")}\n---\n`;
    const started = performance.now();
    const c = checkSkillDir(skillDir("my-skill", text));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(codes(c)).toEqual(["yaml.alias-limit"]);
    expect(c.loadable).toBe(false);
  });

  it("reports duplicate keys at the second key and does not load", () => {
    const c = checkSkillDir(skillDir("my-skill", "---\nname: my-skill\ndescription: a\ndescription: b\n---\n"));
    expect(c.diagnostics).toHaveLength(1);
    expect(c.diagnostics[0]).toMatchObject({ code: "yaml.duplicate-key", line: 4, column: 1 });
    expect(c.diagnostics[0]!.message).toContain('"description"');
    expect(c.loadable).toBe(false);
  });

  it("points YAML syntax errors into the file, offset by the frontmatter's first line", () => {
    const c = checkSkillSource('---\nname: my-skill\ndescription: "never closed\n---\n', { dir: "/s/my-skill" });
    expect(c.diagnostics[0]).toMatchObject({ code: "yaml.syntax", severity: "error" });
    expect(c.diagnostics[0]!.line).toBeGreaterThanOrEqual(3);
  });

  it("says a YAML mistake once per line, though the parser reports it at each ': ' of `a: b: c`", () => {
    const c = checkSkillSource("---\nname: my-skill\ndescription: Reads: notes: fast\n---\n", { dir: "/s/my-skill" });
    const syntax = c.diagnostics.filter((d) => d.code === "yaml.syntax");
    expect(syntax.map((d) => [d.line, d.message])).toEqual([[3, "Invalid YAML in frontmatter: Nested mappings are not allowed in compact mappings"]]);
  });

  it("points a quoted value that never closes at its opening quote, not at the end of the frontmatter", () => {
    const at = (src: string) => {
      const d = checkSkillSource(src, { dir: "/s/my-skill" }).diagnostics.find((x) => x.code === "yaml.syntax")!;
      return [d.line, d.column, d.message];
    };
    expect(at('---\nname: my-skill\ndescription: "Checks invoices\nlicense: MIT\n---\n')).toEqual([3, 14, 'This quoted value never closes: end it with " on this line (or remove the opening ").']);
    // Escaped quotes inside, an apostrophe in a plain value and one in a comment before the quote that never closes.
    expect(at("---\nname: my-skill\ndescription: 'It''s never closed\nlicense: MIT\n---\n").slice(0, 2)).toEqual([3, 14]);
    expect(at("---\nname: my-skill\ndescription: It's fine # a 'comment\nlicense: 'MIT\n---\n").slice(0, 2)).toEqual([4, 10]);
    expect(at('---\nname: my-skill\ndescription: "a \\" b\nlicense: MIT\n---\n').slice(0, 2)).toEqual([3, 14]);
  });

  it("refuses deep nesting and oversized frontmatter before the YAML parser spends time on them", () => {
    const started = performance.now();
    expect(codes(checkSkillSource(`---\nname: x\na: ${"[".repeat(10_000)}\n---\n`, { dir: "/s/x" }))).toEqual(["yaml.too-deep"]);
    expect(codes(checkSkillSource(`---\nname: x\ndescription: "${"y".repeat(70_000)}\\n"\n---\n`, { dir: "/s/x" }))).toEqual(["frontmatter.too-large"]);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("scans a body of 20,000 links on one line in linear time", () => {
    const body = Array.from({ length: 20_000 }, (_, i) => `[a](references/f${i}.md)`).join(" ");
    const started = performance.now();
    const c = checkSkillSource(`---\nname: x\ndescription: y\n---\n${body}`, { dir: "/s/x", fileExists: () => false });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(c.diagnostics.filter((d) => d.code === "body.missing-reference")).toHaveLength(50); // capped
  });

  it("never throws on arbitrary bytes", () => {
    let seed = 42;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pieces = ["---\n", "name: ", "x", ": ", "\n", "  - ", "&a ", "*a", "'", '"', "{", "[", "\t", "\r\n", "\xff", "é", "#", "|\n", "...\n"];
    for (let i = 0; i < 500; i++) {
      let s = "";
      for (let j = 0; j < 30; j++) s += pieces[Math.floor(rnd() * pieces.length)];
      const c = checkSkillSource(Buffer.from(s, "latin1"), { dir: "/s/x", rules: i % 2 ? "spec" : "omniforge", fileExists: () => false });
      expect(c.valid).toBe(!c.diagnostics.some((d) => d.severity === "error"));
    }
  });
});

describe("checkSkillDir's folder", () => {
  it("is normalised where a path has . or .. segments, and kept where names only start with a dot", () => {
    const dir = skillDir("my-skill", MINIMAL);
    const parent = path.dirname(dir);
    const dotted = path.join(parent, ".agents", "skills", "my-skill");
    fs.mkdirSync(dotted, { recursive: true });
    fs.writeFileSync(path.join(dotted, "SKILL.md"), MINIMAL);
    const cases: [string, string][] = [
      [dotted, dotted],
      [`${parent}/./my-skill`, dir],
      [`${parent}/.agents/../my-skill`, dir],
      [`${parent}/.agents/skills/my-skill/.`, dotted],
      [`${parent}/.agents/skills/my-skill/x/..`, dotted],
      [`${parent}//my-skill/`, dir],
    ];
    for (const [given, expected] of cases) {
      const c = checkSkillDir(given);
      expect([given, c.dir, c.file, c.valid]).toEqual([given, expected, path.join(expected, "SKILL.md"), true]);
    }
  });
});

describe("checkSkillSource (editor buffers)", () => {
  it("takes text, uses dir only for the folder-name rule, and checks references through the callback", () => {
    const seen: string[] = [];
    const c = checkSkillSource("---\nname: other\ndescription: d\n---\nSee [a](references/a.md) and [b](references/b.md).\n", {
      dir: "/somewhere/my-skill",
      fileExists: (p) => (seen.push(p), p === "references/a.md"),
    });
    expect(seen).toEqual(["references/a.md", "references/b.md"]);
    expect(c.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([
      ["name.directory-mismatch", 2, 7],
      ["body.missing-reference", 5, 34],
    ]);
    expect(c.dir).toBe(path.resolve("/somewhere/my-skill"));
  });

  it("gives the same digest for the same content as text or bytes", () => {
    const a = checkSkillSource(MINIMAL, { dir: "/x/my-skill" });
    const b = checkSkillSource(new TextEncoder().encode(MINIMAL), { dir: "/x/my-skill" });
    expect(a.digest).toBe(b.digest);
  });
});
