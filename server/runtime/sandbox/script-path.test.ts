import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { interpreterFor, resolveScript, SandboxRefusal } from "./script-path";

let root: string;
let skill: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "sbx-path-"));
  skill = path.join(root, "skill");
  fs.mkdirSync(path.join(skill, "scripts", "sub"), { recursive: true });
  fs.writeFileSync(path.join(skill, "scripts", "a.py"), "print(1)\n");
  fs.writeFileSync(path.join(skill, "scripts", "sub", "b.sh"), "echo\n");
  fs.writeFileSync(path.join(root, "outside.sh"), "echo\n");
  fs.symlinkSync(path.join(root, "outside.sh"), path.join(skill, "scripts", "out.sh"));
  fs.symlinkSync("a.py", path.join(skill, "scripts", "alias.py"));
  fs.symlinkSync(root, path.join(skill, "scripts", "updir"));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("resolveScript", () => {
  it("resolves a path under the skill folder", () => {
    expect(resolveScript(skill, "scripts/a.py").relative).toBe("scripts/a.py");
    expect(resolveScript(skill, "./scripts//sub/b.sh").relative).toBe("scripts/sub/b.sh");
    expect(resolveScript(skill, "scripts/alias.py").relative).toBe("scripts/a.py"); // a link that stays inside is fine
  });

  it.each([
    ["../outside.sh", /leaves the skill folder/],
    ["scripts/../../outside.sh", /leaves the skill folder/],
    ["scripts\\..\\..\\outside.sh", /leaves the skill folder/],
    ["/etc/passwd", /absolute/],
    ["scripts/out.sh", /symlink that leaves/],
    ["scripts/updir/outside.sh", /symlink that leaves/],
    ["scripts/none.py", /Script not found: scripts\/none.py/],
    ["scripts/sub", /not a regular file/],
    ["", /No script path/],
    ["a\0b", /NUL/],
  ])("refuses %j", (script, message) => {
    expect(() => resolveScript(skill, script)).toThrow(SandboxRefusal);
    expect(() => resolveScript(skill, script)).toThrow(message);
  });

  it("refuses a relative or missing skill folder", () => {
    expect(() => resolveScript("skill", "scripts/a.py")).toThrow(/absolute/);
    expect(() => resolveScript(path.join(root, "nope"), "scripts/a.py")).toThrow(/does not exist/);
  });
});

describe("interpreterFor", () => {
  const file = (name: string, text: string, mode = 0o644) => {
    const p = path.join(root, name);
    fs.writeFileSync(p, text, { mode });
    fs.chmodSync(p, mode);
    return p;
  };

  it("chooses absolute interpreters by extension", () => {
    expect(interpreterFor(file("x.py", ""), "x.py")).toEqual(["/usr/bin/python3"]);
    expect(interpreterFor(file("x.sh", ""), "x.sh")).toEqual(["/usr/bin/bash"]);
    expect(interpreterFor(file("x.mjs", ""), "x.mjs")).toEqual(["/usr/bin/node"]);
    expect(interpreterFor(file("x.JS", ""), "x.JS")).toEqual(["/usr/bin/node"]);
  });

  it("uses the shebang when it points under /usr or /bin, and refuses others", () => {
    expect(interpreterFor(file("t1", "#!/usr/bin/env python3\n"), "t1")).toEqual(["/usr/bin/env", "python3"]);
    expect(interpreterFor(file("t2", "#! /bin/sh\n"), "t2")).toEqual(["/bin/sh"]);
    expect(() => interpreterFor(file("t3", "#!/root/.pyenv/shims/python\n"), "t3")).toThrow(/does not exist in the sandbox/);
    expect(() => interpreterFor(file("t4", "#!/usr/../root/x\n"), "t4")).toThrow(SandboxRefusal);
  });

  it("runs an executable file itself, refuses a plain unknown file", () => {
    expect(interpreterFor(file("bin1", "\x7fELF", 0o755), "bin1")).toEqual([]);
    expect(() => interpreterFor(file("data1", "hello"), "data1")).toThrow(/Cannot tell how to run/);
  });
});
