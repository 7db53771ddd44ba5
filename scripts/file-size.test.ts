// Files a person can hold in their head (#13): no source file over 400 lines, and the editor's hooks and views
// (split out of a 643-line component) under about 200 each. Tests and e2e specs are not counted.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "..");
const SOURCE = /\.(ts|tsx|mjs)$/;
const NOT_SOURCE = /\.(test|spec)\.tsx?$|\.d\.ts$/;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(repo, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(rel));
    else if (e.isFile() && SOURCE.test(e.name) && !NOT_SOURCE.test(e.name)) out.push(rel);
  }
  return out;
}

const lines = (rel: string) => fs.readFileSync(path.join(repo, rel), "utf8").split("\n").length - 1;
/** The files longer than max, each with its length, so a failure names what to split. */
const over = (files: string[], max: number) => files.flatMap((f) => (lines(f) > max ? [`${f} (${lines(f)} lines)`] : []));

describe("file sizes", () => {
  it("has no source file over 400 lines", () => {
    const files = ["app", "bin", "components", "db", "scripts", "server"].flatMap(sources);
    expect(files.length).toBeGreaterThan(100); // the walk found the code, not an empty folder
    expect(over(files, 400)).toEqual([]);
  });

  it("keeps each file of the skill editor under 200 lines", () => {
    const files = sources("components/editor");
    expect(files).toContain(path.join("components", "editor", "skill-editor.tsx"));
    expect(over(files, 200)).toEqual([]);
  });
});
