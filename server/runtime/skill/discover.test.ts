// Discovery of skill folders in a real temporary tree: nesting, skipped folders, symlinks in and out of root.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findSkillDirs } from "./index";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-skill-find-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function skill(rel: string, fileName = "SKILL.md") {
  fs.mkdirSync(path.join(tmp, rel), { recursive: true });
  fs.writeFileSync(path.join(tmp, rel, fileName), "---\nname: x\ndescription: y\n---\n");
}

describe("findSkillDirs", () => {
  skill("root/a");
  skill("root/a/nested/inner"); // a skill inside a skill, as qdrant-scaling has
  skill("root/b", "skill.md");
  skill("root/.claude/skills/c"); // hidden folders used by agents are searched
  skill("root/node_modules/pkg/d");
  skill("root/.git/e");
  fs.mkdirSync(path.join(tmp, "root/not-a-skill/SKILL.md"), { recursive: true }); // a folder named SKILL.md
  skill("elsewhere/outside");
  fs.symlinkSync(path.join(tmp, "elsewhere"), path.join(tmp, "root/link-out"));
  fs.symlinkSync(path.join(tmp, "root/a"), path.join(tmp, "root/link-in"));
  fs.symlinkSync(path.join(tmp, "root"), path.join(tmp, "root/a/loop"));

  it("finds every skill folder, nested ones included, sorted, skipping node_modules, .git and links that leave root", () => {
    const root = path.join(tmp, "root");
    const found = findSkillDirs(root).map((d) => path.relative(root, d));
    expect(found).toEqual([".claude/skills/c", "a", "a/nested/inner", "b"]);
  });

  it("does not follow symlinked folders, so nothing is listed twice and loops end", () => {
    const found = findSkillDirs(path.join(tmp, "root"));
    expect(found.some((d) => d.includes("link-in") || d.includes("link-out") || d.includes("loop"))).toBe(false);
  });

  it("includes root itself, honours maxDepth, and returns [] for a missing root", () => {
    expect(findSkillDirs(path.join(tmp, "root/a")).map((d) => path.basename(d))).toEqual(["a", "inner"]);
    expect(findSkillDirs(path.join(tmp, "root/link-in")).map((d) => path.basename(d))).toEqual(["link-in", "inner"]); // a linked root is walked
    expect(findSkillDirs(path.join(tmp, "root/a"), { maxDepth: 1 }).map((d) => path.basename(d))).toEqual(["a"]);
    expect(findSkillDirs(path.join(tmp, "nope"))).toEqual([]);
  });
});

describe("findSkillDirs and what it does not enter", () => {
  it("finds a folder whose SKILL.md is a FIFO (the check reports it; nothing opens it for reading)", () => {
    const root = path.join(tmp, "fifo-root");
    skill("fifo-root/plain");
    fs.mkdirSync(path.join(root, "fifo"), { recursive: true });
    execFileSync("mkfifo", [path.join(root, "fifo", "SKILL.md")]);
    expect(findSkillDirs(root).map((d) => path.relative(root, d))).toEqual(["fifo", "plain"]);
  });

  it("tells onDepthLimit about each folder it leaves unentered at maxDepth", () => {
    const root = path.join(tmp, "deep-root");
    skill("deep-root/1/2/3/s");
    const stopped: string[] = [];
    expect(findSkillDirs(root, { maxDepth: 2, onDepthLimit: (d) => stopped.push(d) })).toEqual([]);
    expect(stopped).toEqual([path.join(root, "1/2/3")]);
    stopped.length = 0;
    expect(findSkillDirs(root, { maxDepth: 4, onDepthLimit: (d) => stopped.push(d) })).toEqual([path.join(root, "1/2/3/s")]);
    expect(stopped).toEqual([]);
  });
});
