// What each command of the compiled CLI loads: the static imports reachable from its chunk in the real bundle, and
// the packages a whole `node bin/omniforge.mjs` process resolves (a resolve hook reports them). A start pays for
// every package on that path (zod alone is about 70 ms), so `omniforge --help` loads none, `skill validate` only
// the YAML parser, and the commands that read skill folders no database, search engine or model SDK.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCliBundle, cliEntry } from "./cli-bundle.mjs";

const repo = path.resolve(import.meta.dirname, "..");
let outDir: string;
let entry: string;

beforeAll(async () => {
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), "of-cli-graph-"));
  entry = path.basename(await buildCliBundle(repo, outDir));
  await cliEntry(repo); // the bin's own bundle fresh, so no run below rebuilds (and loads esbuild)
}, 120_000);
afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

/** The chunk files (`files`) and packages (not node: builtins) a chunk imports statically, directly or through others. */
function loadedBy(chunk: string): { files: string[]; packages: string[] } {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const todo = [chunk];
  while (todo.length) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const src = fs.readFileSync(path.join(outDir, file), "utf8");
    // esbuild writes static imports as `import ... from "x";` / `import "x";` at the start of a line; import() is
    // a different form and loads only when called.
    for (const m of src.matchAll(/^(?:import|export)\s[^;]*?["']([^"']+)["'];?$/gms)) {
      const spec = m[1]!;
      if (spec.startsWith("./")) todo.push(spec.slice(2));
      else if (!spec.startsWith("node:")) packages.add(spec);
    }
  }
  return { files: [...seen], packages: [...packages].sort() };
}
const packagesLoadedBy = (chunk: string) => loadedBy(chunk).packages;

const chunkOf = (command: string) => {
  const name = fs.readdirSync(outDir).find((f) => f.startsWith(`${command}-`) && f.endsWith(".mjs"));
  if (!name) throw new Error(`no chunk for ${command} in ${fs.readdirSync(outDir).join(", ")}`);
  return name;
};

const HEAVY = ["better-sqlite3", "drizzle-orm", "minisearch", "ai", "@ai-sdk/openai", "@ai-sdk/anthropic"];

describe("what a command loads at start", () => {
  it("omniforge --help and --version load no package at all", () => {
    expect(packagesLoadedBy(entry)).toEqual([]);
  });

  it.each(["skill-list", "skill-validate"])("%s loads no database, search engine or model SDK", (command) => {
    const loaded = packagesLoadedBy(chunkOf(command));
    expect(loaded.filter((p) => HEAVY.some((h) => p === h || p.startsWith(`${h}/`)))).toEqual([]);
  });

  // fast-yaml.ts reads nearly every frontmatter; the YAML parser (260 KB) is its own file, required on first use.
  it.each(["skill-list", "skill-validate"])("%s does not compile the YAML parser unless a frontmatter needs it", (command) => {
    const yamlFile = fs.readdirSync(outDir).find((f) => /^yaml-[A-Z0-9]+\.cjs$/.test(f));
    expect(yamlFile).toBeDefined();
    expect(fs.readFileSync(path.join(outDir, yamlFile!), "utf8")).toContain("parseDocument");
    const chunks = loadedBy(chunkOf(command)).files;
    expect(chunks.filter((f) => fs.readFileSync(path.join(outDir, f), "utf8").includes("node_modules/yaml/"))).toEqual([]);
    expect(chunks.some((f) => fs.readFileSync(path.join(outDir, f), "utf8").includes(`require("./${yamlFile}")`))).toBe(true);
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
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
