// Folders the user running the CLI cannot read, and a SKILL.md that is a FIFO: the walks of validate, doctor and
// list report them (a stable code, counted) instead of dropping them, and never block. The real bin runs as the
// user running the tests; under root, without the two capabilities that let root past permissions (setpriv), so a
// chmod 000 stops it as it stops anyone.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "../../..");
const asRoot = process.getuid?.() === 0;
const UNPRIVILEGED = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-cli-access-"));
const project = path.join(tmp, "project");
const skills = path.join(project, ".omniforge", "skills");
const rel = path.relative(tmp, skills);
const home = path.join(tmp, "home");

function omniforge(...args: string[]) {
  return omniforgeWith({}, ...args);
}

function omniforgeWith(env: Record<string, string>, ...args: string[]) {
  const command = [...(asRoot ? UNPRIVILEGED : []), process.execPath, path.join(repo, "bin/omniforge.mjs"), ...args];
  const r = spawnSync(command[0]!, command.slice(1), {
    cwd: tmp,
    encoding: "utf8",
    env: { ...process.env, HOME: home, OMNIFORGE_HOME: path.join(home, ".omniforge"), OMNIFORGE_PROJECT_ROOT: project, OMNIFORGE_CACHE_DIR: "off", ...env },
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr, timedOut: r.error !== undefined };
}

function skill(rel: string, body = "Body.\n") {
  const dir = path.join(skills, rel);
  fs.mkdirSync(dir, { recursive: true });
  const name = path.basename(rel);
  fs.writeFileSync(path.join(dir, "SKILL.md"), `---\nname: ${name}\ndescription: Does ${name} work. Use when ${name} is asked for.\n---\n${body}`);
  return dir;
}

beforeAll(() => {
  skill("plain");
  fs.mkdirSync(path.join(skills, "fifo"));
  execFileSync("mkfifo", [path.join(skills, "fifo", "SKILL.md")]);
  skill("locked");
  fs.chmodSync(path.join(skills, "locked"), 0o000);
  const refs = skill("refs", "Read [r](references/guide.md).\n");
  fs.mkdirSync(path.join(refs, "references"));
  fs.writeFileSync(path.join(refs, "references", "guide.md"), "guide\n");
  fs.chmodSync(path.join(refs, "references"), 0o000);
  fs.mkdirSync(home);
});
afterAll(() => {
  for (const d of [path.join(skills, "locked"), path.join(skills, "refs", "references")]) if (fs.existsSync(d)) fs.chmodSync(d, 0o755);
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("unreadable folders and a FIFO SKILL.md", () => {
  it("validate --recursive reports and counts both, and a reference in an unreadable folder as unreadable", () => {
    const r = omniforge("skill", "validate", "--recursive", rel);
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${rel}/fifo/SKILL.md:1:1 error file.not-a-file SKILL.md is not a regular file`);
    expect(r.out).toContain(`${rel}/locked:1:1 error folder.unreadable Cannot read ${path.join(fs.realpathSync(skills), "locked")}: permission denied (EACCES)`);
    expect(r.out).toContain('warning body.unreadable-reference "references/guide.md" is referenced but cannot be read');
    expect(r.out).not.toContain("body.missing-reference");
    expect(r.out).toContain("4 skills checked (rules: spec): 2 valid, 2 invalid");
  });

  it("validate of the unreadable folder itself says it cannot be read, not that SKILL.md is missing, and gives no --recursive hint", () => {
    const r = omniforge("skill", "validate", `${rel}/locked`);
    expect(r.code).toBe(1);
    expect(r.out).toContain("error folder.unreadable Cannot read");
    expect(r.out).not.toContain("Missing required file");
    expect(r.err).toBe("");
  });

  it("doctor of the unreadable folder reports it as a skill that does not load (exit 1), not as a usage error", () => {
    const r = omniforge("skill", "doctor", `${rel}/locked`);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/high\s+skill\.not-loadable .*permission denied \(EACCES\).*\[folder\.unreadable\]/);
  });

  for (const thread of ["0", "1"]) {
    it(`list shows both as invalid entries saying why (scan thread ${thread})`, () => {
      const r = omniforgeWith({ OMNIFORGE_SCAN_THREAD: thread }, "skill", "list", "--json");
      expect(r.timedOut).toBe(false);
      expect(r.code, r.err).toBe(0);
      const entries = JSON.parse(r.out) as { name: string; status: string; diagnostics: { code: string }[] }[];
      const byName = new Map(entries.map((e) => [e.name, e]));
      expect([...byName.keys()].sort()).toEqual(["fifo", "locked", "plain", "refs"]);
      expect(byName.get("fifo")).toMatchObject({ status: "invalid", diagnostics: [{ code: "file.not-a-file" }] });
      expect(byName.get("locked")).toMatchObject({ status: "invalid", diagnostics: [{ code: "folder.unreadable" }] });
    });
  }
});
