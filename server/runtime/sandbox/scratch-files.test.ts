import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listScratch, readScratchFile } from "./scratch-files";

let root: string;
let scratch: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "sbx-scratch-"));
  scratch = path.join(root, "scratch");
  fs.mkdirSync(path.join(scratch, "sub"), { recursive: true });
  fs.writeFileSync(path.join(root, "secret.txt"), "host secret\n");
  fs.writeFileSync(path.join(scratch, "out.txt"), "result\n");
  fs.writeFileSync(path.join(scratch, "sub", "deep.txt"), "deep\n");
  fs.symlinkSync(path.join(root, "secret.txt"), path.join(scratch, "link.txt"));
  fs.symlinkSync(root, path.join(scratch, "updir"));
  fs.symlinkSync("/etc/shadow", path.join(scratch, "shadow"));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("scratch files", () => {
  it("lists with lstat: symlinks are reported, never entered", () => {
    const list = listScratch(scratch);
    expect(list.map((e) => `${e.path}:${e.type}`)).toEqual([
      "link.txt:symlink",
      "out.txt:file",
      "shadow:symlink",
      "sub:dir",
      "sub/deep.txt:file",
      "updir:symlink",
    ]);
  });

  it("reads regular files and refuses planted symlinks, traversal and directories", () => {
    expect(readScratchFile(scratch, "out.txt").toString()).toBe("result\n");
    expect(readScratchFile(scratch, "sub/deep.txt").toString()).toBe("deep\n");
    expect(() => readScratchFile(scratch, "link.txt")).toThrow(/symlink/);
    expect(() => readScratchFile(scratch, "shadow")).toThrow(/symlink/);
    expect(() => readScratchFile(scratch, "updir/secret.txt")).toThrow(/outside the scratch folder/);
    expect(() => readScratchFile(scratch, "../secret.txt")).toThrow(/not a path inside/);
    expect(() => readScratchFile(scratch, "/etc/hostname")).toThrow(/not a path inside/);
    expect(() => readScratchFile(scratch, "sub")).toThrow(/not a regular file/);
    expect(() => readScratchFile(scratch, "out.txt", 3)).toThrow(/more than the 3 allowed/);
  });
});
