import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listFiles } from "./walk-files";

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "of-walk-"));
  for (const f of ["b.md", "a/x.ts", "a/deep/y.ts", ".hidden/z.ts", "skip/w.ts"]) {
    fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    fs.writeFileSync(path.join(root, f), "");
  }
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const everything = { enter: () => true, keep: () => true };

describe("listFiles", () => {
  it("lists the files as sorted, '/'-separated paths, entering only the folders the caller allows", () => {
    expect(listFiles(root, everything)).toEqual([".hidden/z.ts", "a/deep/y.ts", "a/x.ts", "b.md", "skip/w.ts"]);
    const rules = { enter: (rel: string) => rel !== "skip" && !rel.startsWith("."), keep: (rel: string) => rel.endsWith(".ts") };
    expect(listFiles(root, rules)).toEqual(["a/deep/y.ts", "a/x.ts"]);
  });

  it("starts below the root when asked, keeping paths relative to the root", () => {
    expect(listFiles(root, everything, "a")).toEqual(["a/deep/y.ts", "a/x.ts"]);
  });

  it("stops at the maximum and passes over a folder it cannot read", () => {
    expect(listFiles(root, { ...everything, max: 2 })).toHaveLength(2);
    expect(listFiles(root, everything, "no-such-folder")).toEqual([]);
  });
});
