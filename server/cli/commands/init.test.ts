// `omniforge init` and the agents' own folders, in a throw-away HOME and project, through the real bin.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

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
    const v = omniforge("skill", "validate", ".omniforge/skills", "--recursive");
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
