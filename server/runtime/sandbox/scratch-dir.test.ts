// A script's working folder must really be inside the session's scratch folder (links followed); a folder whose name
// starts with two dots is still inside. Real folders.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { realScratchFolder } from "./scratch-dir";

let base: string;
let scratch: string;
beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-scratch-dir-"));
  scratch = path.join(base, "scratch");
  fs.mkdirSync(scratch);
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

describe("a script's working folder in the scratch", () => {
  it("is inside when it is, whatever its name, and named by its path inside", () => {
    fs.mkdirSync(path.join(scratch, "..build", "out"), { recursive: true });
    expect(realScratchFolder(scratch, path.join(scratch, "..build", "out"))).toEqual({ rel: "..build/out" });
    expect(realScratchFolder(scratch, scratch)).toEqual({ rel: "" });
  });

  it("is outside when it leaves the scratch, through '..' or a link", () => {
    fs.mkdirSync(path.join(base, "elsewhere"));
    fs.symlinkSync(path.join(base, "elsewhere"), path.join(scratch, "link"));
    expect(realScratchFolder(scratch, path.join(scratch, "link"))).toEqual({ problem: "outside" });
    expect(realScratchFolder(scratch, path.join(scratch, ".."))).toEqual({ problem: "outside" });
    expect(realScratchFolder(scratch, path.join(scratch, "missing"))).toEqual({ problem: "missing" });
    fs.writeFileSync(path.join(scratch, "file"), "x");
    expect(realScratchFolder(scratch, path.join(scratch, "file"))).toEqual({ problem: "not-a-folder" });
  });
});
