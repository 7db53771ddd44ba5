import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decodeText, languageOf, listTree, sha256, writeFileAtomic } from "./files";
import { linksOf } from "./live-check";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-files-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("skill files", () => {
  it("picks the editor language per file", () => {
    expect(["SKILL.md", "a.yaml", "b.yml", "s.py", "run.sh", "x.mjs", "c.json", "LICENSE", "notes.txt"].map(languageOf)).toEqual([
      "markdown",
      "yaml",
      "yaml",
      "python",
      "shell",
      "javascript",
      "json",
      "plaintext",
      "plaintext",
    ]);
  });

  it("treats NUL bytes and invalid UTF-8 as binary, text with non-ASCII as text", () => {
    expect(decodeText(Buffer.from("héllo ✓\n"))).toBe("héllo ✓\n");
    expect(decodeText(Buffer.from([0x68, 0x00, 0x69]))).toBeNull();
    expect(decodeText(Buffer.from([0xff, 0xfe, 0x41]))).toBeNull();
  });

  it("writes atomically, keeps the mode and leaves no temp file", () => {
    const file = path.join(dir, "scripts", "run.sh");
    writeFileAtomic(file, "#!/bin/sh\necho 1\n", 0o755);
    writeFileAtomic(file, "#!/bin/sh\necho 2\n");
    expect(fs.readFileSync(file, "utf8")).toBe("#!/bin/sh\necho 2\n");
    expect(fs.statSync(file).mode & 0o777).toBe(0o755);
    expect(fs.readdirSync(path.dirname(file))).toEqual(["run.sh"]);
    expect(sha256("#!/bin/sh\necho 2\n")).toBe(sha256(fs.readFileSync(file)));
  });

  it("lists the tree without links that leave the folder", () => {
    fs.writeFileSync(path.join(dir, "SKILL.md"), "x");
    fs.mkdirSync(path.join(dir, "assets"));
    fs.writeFileSync(path.join(dir, "assets", "img.png"), Buffer.from([137, 80, 78, 71, 0]));
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-outside-"));
    fs.symlinkSync(outside, path.join(dir, "escape"));
    try {
      expect(listTree(dir).map((n) => [n.path, n.type, n.binary])).toEqual([
        ["assets", "dir", false],
        ["assets/img.png", "file", true],
        ["SKILL.md", "file", false],
      ]);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it("judges a file again when it changes between two listings, even at the same size", async () => {
    const file = path.join(dir, "notes.txt");
    fs.writeFileSync(file, "abc");
    // Old enough for its verdict to be kept (a file changed in the last seconds is read every time).
    await new Promise((r) => setTimeout(r, 2100));
    expect(listTree(dir).map((n) => n.binary)).toEqual([false]);
    fs.writeFileSync(file, Buffer.from([0x61, 0x00, 0x63]));
    expect(listTree(dir).map((n) => n.binary)).toEqual([true]);
    // Back to text with the first modification time put back: the new ctime still shows.
    const { atime, mtime } = fs.statSync(file);
    fs.writeFileSync(file, "xyz");
    fs.utimesSync(file, atime, mtime);
    expect(listTree(dir).map((n) => n.binary)).toEqual([false]);
    // Replaced by another file of the same size (as an atomic save does).
    fs.writeFileSync(`${file}.new`, Buffer.from([0xff, 0xfe, 0x41]));
    fs.renameSync(`${file}.new`, file);
    expect(listTree(dir).map((n) => n.binary)).toEqual([true]);
  });

  it("classifies body links: inside, missing, leaving, web", () => {
    const links = linksOf("[a](references/a.md) [b](references/b.md#x) [c](../c.md) [d](/etc/passwd) [e](https://x.io) [f](#top)", (p) => p === "references/a.md");
    expect(links.map((l) => [l.href, l.kind])).toEqual([
      ["references/a.md", "inside"],
      ["references/b.md#x", "missing"],
      ["../c.md", "outside"],
      ["/etc/passwd", "outside"],
      ["https://x.io", "url"],
    ]);
  });
});
