// Files a person can hold in their head (#13): no source file over 400 lines, no test or e2e spec over 400 either,
// and the editor's hooks and views (split out of a 643-line component) under about 200 each.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

import { repoRoot as repo, sourceFiles } from "../server/test-support/source-files";

const CODE_DIRS = ["app", "bin", "components", "db", "scripts", "server"];
const TEST = /\.(test|spec)\.tsx?$/;
const lines = (rel: string) => fs.readFileSync(path.join(repo, rel), "utf8").split("\n").length - 1;
/** The files longer than max, each with its length, so a failure names what to split. */
const over = (files: string[], max: number) => files.flatMap((f) => (lines(f) > max ? [`${f} (${lines(f)} lines)`] : []));

describe("file sizes", () => {
  it("has no source file over 400 lines", () => {
    const files = CODE_DIRS.flatMap((d) => sourceFiles(d, { tests: false }));
    expect(files.length).toBeGreaterThan(100); // the walk found the code, not an empty folder
    expect(over(files, 400)).toEqual([]);
  });

  it("has no test or e2e spec over 400 lines", () => {
    // The tests beside the code, and all of e2e/ (its specs and the helpers they share).
    const files = [...CODE_DIRS, "e2e"]
      .flatMap((d) => sourceFiles(d, { tests: true }))
      .filter((f) => TEST.test(f) || f.startsWith(`e2e${path.sep}`));
    expect(files).toContain(path.join("e2e", "editor.spec.ts")); // the walk reached e2e/
    expect(files).toContain(path.join("scripts", "file-size.test.ts")); // and the tests beside the code
    expect(over(files, 400)).toEqual([]);
  });

  it("keeps each file of the skill editor under 200 lines", () => {
    const files = sourceFiles("components/editor", { tests: false });
    expect(files).toContain(path.join("components", "editor", "skill-editor.tsx"));
    expect(over(files, 200)).toEqual([]);
  });
});
