// What each command of the compiled CLI loads before it runs: the static imports reachable from its chunk in the
// real bundle. A start pays for every package on that path (zod alone is about 70 ms), so `omniforge --help`
// loads none, and the commands that read skill folders load no database, search engine or model SDK.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCliBundle } from "./cli-bundle.mjs";

const repo = path.resolve(import.meta.dirname, "..");
let outDir: string;
let entry: string;

beforeAll(async () => {
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), "of-cli-graph-"));
  entry = path.basename(await buildCliBundle(repo, outDir));
}, 120_000);
afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

/** The packages (not node: builtins, not our own chunks) a chunk imports statically, directly or through others. */
function packagesLoadedBy(chunk: string): string[] {
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
  return [...packages].sort();
}

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
});
