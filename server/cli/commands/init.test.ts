// `omniforge init` and the agents' own folders, in a throw-away HOME and project, through the real bin.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeNeeding, isRoot, root } from "../../test-support/needs";

const repo = path.resolve(import.meta.dirname, "../../..");
let base: string;
let home: string;
let project: string;
beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-init-")));
  home = path.join(base, "home");
  project = path.join(base, "project");
  fs.mkdirSync(home);
  fs.mkdirSync(project);
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

const omniforge = (...args: string[]) =>
  spawnSync(process.execPath, [path.join(repo, "bin/omniforge.mjs"), ...args], { cwd: project, encoding: "utf8", env: { ...process.env, HOME: home, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "", CODEX_HOME: "" } });

describe("omniforge init", () => {
  it("creates the skills folder and a valid example, and never overwrites", () => {
    const r = omniforge("init");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("created .omniforge/skills/");
    expect(r.stdout).toContain("created .omniforge/skills/example-skill/SKILL.md");
    // Clean as made: no warning from validate, no finding from the doctor, and found by a request it describes.
    const v = omniforge("skill", "validate", ".omniforge/skills"); // as the "next:" line says
    expect([v.status, v.stdout.split("\n\n")[0]]).toEqual([0, ".omniforge/skills/example-skill/SKILL.md: valid (example-skill)"]);
    expect(omniforge("skill", "doctor", ".omniforge/skills/example-skill", "--fail-on", "low").stdout).toContain("(example-skill): no findings");
    expect(omniforge("skill", "search", "how do I write a SKILL.md").stdout).toMatch(/^1\. example-skill /);
    // Its trigger set runs as made: the requests it describes choose it, the near misses do not.
    expect(r.stdout).toContain("created .omniforge/skills/example-skill/evals/triggers.json");
    expect(r.stdout).toContain("omniforge skill eval example-skill");
    const e = omniforge("skill", "eval", "example-skill");
    expect([e.status, e.stdout.trim().split("\n").at(-1)]).toEqual([0, "4/4 passed · precision 100% · recall 100% · F1 100% · accuracy 100%"]);
    fs.writeFileSync(path.join(project, ".omniforge/skills/example-skill/SKILL.md"), "---\nname: example-skill\ndescription: mine now. Use it.\n---\nmine\n");
    const again = omniforge("init");
    expect(again.stdout).toContain("kept .omniforge/skills/example-skill/ (already there)");
    expect(fs.readFileSync(path.join(project, ".omniforge/skills/example-skill/SKILL.md"), "utf8")).toContain("mine now");
  });

  it("skill list reads the user's agent folders and the project's .gemini/skills, saying where each came from", () => {
    for (const [dir, name] of [
      [path.join(home, ".claude", "skills"), "from-claude"],
      [path.join(home, ".gemini", "skills"), "from-gemini-user"],
      [path.join(project, ".gemini", "skills"), "from-gemini-project"],
    ] as const) {
      fs.mkdirSync(path.join(dir, name), { recursive: true });
      fs.writeFileSync(path.join(dir, name, "SKILL.md"), `---\nname: ${name}\ndescription: A skill in ${dir}. Use it.\n---\nbody\n`);
    }
    const r = omniforge("skill", "list", "--json");
    expect(r.status, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as { name: string; layer: string; dir: string }[];
    const of = (n: string) => rows.find((x) => x.name === n);
    expect(of("from-claude")).toMatchObject({ layer: "personal", dir: path.join(home, ".claude", "skills", "from-claude") });
    expect(of("from-gemini-user")).toMatchObject({ layer: "personal" });
    expect(of("from-gemini-project")).toMatchObject({ layer: "project", dir: path.join(project, ".gemini", "skills", "from-gemini-project") });
    expect(omniforge("--version").stdout).toMatch(/^omniforge \d+\.\d+\.\d+\n$/);
  });
});

// Folders init cannot use, each refused before anything is made: they printed Node's stack trace (EACCES, EPERM) or,
// under /proc/<pid>, spun at full CPU forever in Node's recursive mkdir.
describe("omniforge init where it cannot write", () => {
  const init = (project: string) =>
    spawnSync(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "init", "--project", project], { cwd: base, encoding: "utf8", env: { ...process.env, HOME: home }, timeout: 20_000 });

  it.each([
    ["/proc/1", "a folder of the kernel's proc file system, not a project: give your project's folder"],
    ["/sys", "a folder of the kernel's sysfs file system, not a project: give your project's folder"],
    ["/etc/passwd", "not a folder"],
  ])("%s: one line, exit 2, nothing made", (dir, why) => {
    const r = init(dir);
    expect([r.signal, r.status, r.stderr]).toEqual([null, 2, `omniforge init: ${dir}: ${why}\n`]);
    expect(fs.existsSync(path.join(dir, ".omniforge"))).toBe(false);
  });

  it("a file where a folder goes is said in one line, exit 1; what was made is listed", () => {
    const p = path.join(base, "blocked");
    fs.mkdirSync(path.join(p, ".omniforge", "skills"), { recursive: true });
    const file = path.join(p, ".omniforge", "skills", "example-skill");
    fs.writeFileSync(file, "a file, not a folder\n");
    const r = init(p);
    expect([r.status, r.stderr]).toEqual([1, `omniforge init: ${file} is in the way: it is not a folder; move it away and run init again\n`]);
    expect(r.stdout).toBe(`kept ${path.relative(base, path.join(p, ".omniforge", "skills"))} (already there)\n`);
    fs.rmSync(path.join(p, ".omniforge"), { recursive: true });
    fs.writeFileSync(path.join(p, ".omniforge"), "");
    expect(init(p).stderr).toBe(`omniforge init: ${path.join(p, ".omniforge")} is in the way: it is not a folder; move it away and run init again\n`);
  });
});

describeNeeding(root(), "omniforge init as a user who may not write the folder", () => {
  it("says so in one line, exit 2, and makes nothing", () => {
    expect(isRoot).toBe(true);
    const bin = path.join(base, "node-bin");
    fs.mkdirSync(bin, { mode: 0o755, recursive: true });
    fs.chmodSync(base, 0o755);
    const node = path.join(bin, "node");
    fs.copyFileSync(process.execPath, node); // the tests' node may be under /root, closed to other users
    fs.chmodSync(node, 0o755);
    const ro = path.join(base, "root-owned");
    fs.mkdirSync(ro, { mode: 0o755 });
    const r = spawnSync(node, [path.join(repo, "bin/omniforge.mjs"), "init", "--project", ro], {
      cwd: base,
      encoding: "utf8",
      env: { ...process.env, HOME: base, OMNIFORGE_CACHE_DIR: "off" },
      uid: 65534,
      gid: 65534,
      timeout: 20_000,
    });
    expect([r.status, r.stderr]).toEqual([2, `omniforge init: ${ro}: this user may not write in it: run in a folder of yours, or pass --project\n`]);
    expect(fs.readdirSync(ro)).toEqual([]);
  });
});
