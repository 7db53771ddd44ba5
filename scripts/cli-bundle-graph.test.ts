// What the compiled CLI is made of and what each command loads. A start pays for every package on its path (zod
// alone is about 70 ms), so `omniforge --help` loads none, `skill validate` and `skill list` none either (the YAML
// parser is a file of the bundle), and the commands that read skill folders no database, search engine or model
// SDK. Whole `node bin/omniforge.mjs` processes, with a resolve hook reporting every package they load.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCliBundle, cliEntry } from "./cli-bundle.mjs";

const repo = path.resolve(import.meta.dirname, "..");
let outDir: string;
let entry: string;
let commands: string;

beforeAll(async () => {
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), "of-cli-graph-"));
  const built = await buildCliBundle(repo, outDir);
  entry = path.basename(built.entry);
  commands = path.basename(built.commands!);
  await cliEntry(repo); // the bin's own bundle fresh, so no run below rebuilds (and loads esbuild)
}, 120_000);
afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

const fileMatching = (re: RegExp) => {
  const name = fs.readdirSync(outDir).find((f) => re.test(f));
  if (!name) throw new Error(`no file like ${re} in ${fs.readdirSync(outDir).join(", ")}`);
  return name;
};

const text = (name: string) => fs.readFileSync(path.join(outDir, name), "utf8");

describe("the bundle's files", () => {
  it("the entry (arguments and help: all `omniforge --help` compiles) is small and holds no command's code", () => {
    expect(fs.statSync(path.join(outDir, entry)).size).toBeLessThan(50_000);
    expect(text(entry)).not.toContain("// server/cli/commands/");
    expect(text(commands)).toContain("// server/cli/commands/skill-list.ts");
  });

  // fast-yaml.ts reads nearly every frontmatter; the YAML parser (260 KB) is its own file, required on first use.
  it("the YAML parser is a file of its own, which every use requires; the scripts hold no copy", () => {
    const yamlFile = fileMatching(/^yaml-[A-Z0-9]+\.cjs$/);
    expect(text(yamlFile)).toContain("parseDocument");
    expect(text(entry) + text(commands)).not.toContain("node_modules/yaml/");
    // The runtime's loader and the modules importing "yaml" themselves (the frontmatter editor, policy files).
    expect(text(commands).split(`require("./${yamlFile}")`).length - 1).toBeGreaterThanOrEqual(2);
  });

  it("the walk's helper thread loads a small file of its own, which the commands script names", () => {
    const helper = fileMatching(/^read-helper-[A-Z0-9]+\.cjs$/);
    expect(fs.statSync(path.join(outDir, helper)).size).toBeLessThan(100_000);
    expect(text(commands)).toContain(JSON.stringify(`./${helper}`));
  });

  // A non-ASCII character anywhere (a comment esbuild keeps, a regular expression) makes the whole script two-byte
  // text for V8 (cli-code-cache.mjs), slower to read and scan at every start: write it as an escape (\u201c).
  it("the scripts are ASCII, so they load as one-byte text", () => {
    for (const name of [entry, commands]) {
      const lines = text(name).split("\n");
      expect(lines.filter((l) => /[^\x00-\x7f]/.test(l)).map((l) => l.trim().slice(0, 120))).toEqual([]);
    }
  });
});

// Reports every module resolved from node_modules, CommonJS requires included.
const HOOK = `import { registerHooks } from "node:module";
registerHooks({ resolve(s, c, next) { const r = next(s, c); if (r.url.includes("/node_modules/")) process.stderr.write("LOADED " + r.url + "\\n"); return r; } });`;

/** The packages a whole `omniforge ...` process loads, by name. */
function packagesOfRun(...args: string[]): string[] {
  const r = spawnSync(process.execPath, ["--import", `data:text/javascript,${encodeURIComponent(HOOK)}`, path.join(repo, "bin", "omniforge.mjs"), ...args], { encoding: "utf8", timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  const names = [...r.stderr.matchAll(/^LOADED .*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)].map((m) => m[1]!);
  return [...new Set(names)].sort();
}

describe("what a whole omniforge process loads", () => {
  it("--help: no package", () => {
    expect(packagesOfRun("--help")).toEqual([]);
  });

  // The YAML parser is compiled into the bundle (one file instead of ~190) and evaluated only for a frontmatter
  // beyond the plain subset; the settings schema (zod, about 70 ms) only when an OMNIFORGE_DEFAULT_* is set.
  it("skill validate and skill list over plain skills: no package (no zod, no yaml from node_modules)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "of-cli-graph-skill-"));
    try {
      fs.mkdirSync(path.join(dir, "demo"));
      fs.writeFileSync(path.join(dir, "demo", "SKILL.md"), "---\nname: demo\ndescription: Says hello. Use when greeting.\n---\nHi\n");
      expect(packagesOfRun("skill", "validate", path.join(dir, "demo"))).toEqual([]);
      // A flow mapping is beyond fast-yaml's subset: the bundled YAML parser reads it, still no package loaded.
      fs.mkdirSync(path.join(dir, "flow"));
      fs.writeFileSync(path.join(dir, "flow", "SKILL.md"), "---\nname: flow\ndescription: Says hello. Use when greeting.\nmetadata: {team: core}\n---\nHi\n");
      expect(packagesOfRun("skill", "validate", path.join(dir, "flow"))).toEqual([]);
      const home = path.join(dir, "home");
      fs.mkdirSync(path.join(home, "enterprise", "skills"), { recursive: true });
      fs.cpSync(path.join(dir, "demo"), path.join(home, "enterprise", "skills", "demo"), { recursive: true });
      expect(packagesOfRun("skill", "list", "--json", "--home", home, "--project", dir)).toEqual([]);
      // A command's packages load when it runs, in one script as in many: search loads its engine and nothing else.
      expect(packagesOfRun("skill", "search", "hello", "--home", home, "--project", dir)).toEqual(["stemmer"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
