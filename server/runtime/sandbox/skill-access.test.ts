import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeNeeding, root as rootUser } from "../../test-support/needs";
import { blockedAncestor, readableCopy, unreadableInside } from "./skill-access";

const U = 65533;
let root: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "sbx-access-"));
  fs.chmodSync(root, 0o755);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describeNeeding(rootUser(), "skill folder readability for the sandbox uid", () => {
  it("finds the first entry the sandbox uid cannot read", () => {
    const skill = path.join(root, "s1");
    fs.mkdirSync(path.join(skill, "scripts"), { recursive: true });
    fs.writeFileSync(path.join(skill, "scripts", "a.sh"), "echo\n", { mode: 0o644 });
    expect(unreadableInside(skill, U, U)).toBeNull();
    fs.chmodSync(path.join(skill, "scripts", "a.sh"), 0o600);
    expect(unreadableInside(skill, U, U)).toBe(path.join(skill, "scripts", "a.sh"));
    fs.chmodSync(skill, 0o700);
    expect(unreadableInside(skill, U, U)).toBe(skill);
    // The way in is the other question: the folder's own modes do not close it, a private parent does.
    expect(blockedAncestor(skill, U, U)).toBeNull();
    fs.chmodSync(root, 0o700);
    try {
      expect(blockedAncestor(skill, U, U)).toBe(root);
    } finally {
      fs.chmodSync(root, 0o755);
    }
  });

  it("never asks for a copy of a tree the sandbox uid owns (it could swap entries during the copy)", () => {
    const scratch = path.join(root, "scratch");
    fs.mkdirSync(scratch, { mode: 0o700 });
    fs.chownSync(scratch, U, U);
    fs.writeFileSync(path.join(scratch, "locked"), "x", { mode: 0o000 });
    expect(unreadableInside(scratch, U, U)).toBeNull();
  });

  it("copies with readable modes, keeps symlinks as links and the exec bit", () => {
    const src = path.join(root, "s2");
    fs.mkdirSync(path.join(src, "scripts"), { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(src, "scripts", "run"), "#!/bin/sh\n", { mode: 0o700 });
    fs.writeFileSync(path.join(src, "notes.md"), "n", { mode: 0o600 });
    fs.symlinkSync("/etc/shadow", path.join(src, "link"));
    const dest = path.join(root, "copy");
    readableCopy(src, dest);
    expect(fs.statSync(path.join(dest, "scripts")).mode & 0o777).toBe(0o755);
    expect(fs.statSync(path.join(dest, "scripts", "run")).mode & 0o777).toBe(0o755);
    expect(fs.statSync(path.join(dest, "notes.md")).mode & 0o777).toBe(0o644);
    expect(fs.readlinkSync(path.join(dest, "link"))).toBe("/etc/shadow");
    expect(unreadableInside(dest, U, U)).toBeNull();
  });
});
