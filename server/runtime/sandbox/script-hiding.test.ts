// A command run (the agent's general shell) never sees the skill's scripts/: every spelling of a read fails
// because the folder is covered inside the sandbox, while a script run still executes it. Real bubblewrap.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { bubblewrap, describeNeeding } from "../../test-support/needs";
import { createSandbox, type Sandbox } from "./index";

const MARK = "SCRIPT_SOURCE_MARKER_7f3a";
let root: string;
let skill: string;
let scratch: string;
let sandbox: Sandbox;

describeNeeding(bubblewrap(), "a command run cannot read the skill's scripts (real bubblewrap)", () => {
  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "sbx-hide-"));
    fs.chmodSync(root, 0o755);
    skill = path.join(root, "skill");
    scratch = path.join(root, "scratch");
    fs.mkdirSync(path.join(skill, "scripts"), { recursive: true });
    fs.mkdirSync(path.join(skill, "references"));
    fs.writeFileSync(path.join(skill, "SKILL.md"), "---\nname: skill\ndescription: d\n---\nRun python3 scripts/x.py\n");
    fs.writeFileSync(path.join(skill, "scripts", "x.py"), `# ${MARK}\nprint('ran x', __import__('sys').argv[1:])\n`);
    fs.writeFileSync(path.join(skill, "references", "notes.md"), "notes\n");
    fs.mkdirSync(scratch, { mode: 0o700 });
    sandbox = createSandbox();
    await sandbox.status();
  });

  afterAll(async () => {
    await sandbox?.close();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  const cmd = (command: string) => sandbox.run({ skillDir: skill, scratchDir: scratch, command });

  const spellings = [
    "cat /skill/scripts/x.py",
    "cd /skill && cat s*/x.py",
    "cd /skill && cat ./scripts/../scripts/x.py",
    "cat '/skill/scr'\"ipts\"/x.py",
    "d=/skill/scr; cat ${d}ipts/x.py",
    "cat /skill/*/*.py",
    "grep -r . /skill",
    "tar cf - /skill 2>/dev/null | strings",
    `python3 -c "print(open('/skill/scr'+'ipts/x.py').read())"`,
    `cd /skill && python3 -c "print(open('scr'+'ipts/x.py').read())"`,
    `python3 -c "import os; [print(open(os.path.join(r,f)).read()) for r,_,fs in os.walk('/skill') for f in fs]"`,
  ];

  for (const spelling of spellings) {
    it(`refuses to show a script to: ${spelling}`, async () => {
      const r = await cmd(spelling);
      expect(r.refused).toBeUndefined();
      expect(r.stdout + r.stderr).not.toContain(MARK);
    });
  }

  it("still shows the rest of the skill, and an empty read-only scripts/ folder", async () => {
    const r = await cmd("cat /skill/references/notes.md; ls -A /skill/scripts | wc -l; touch /skill/scripts/planted 2>/dev/null && echo writable || echo read-only");
    expect(r.stdout).toBe("notes\n0\nread-only\n");
  });

  it("runs the script itself through a script run", async () => {
    const r = await sandbox.run({ skillDir: skill, scratchDir: scratch, script: "scripts/x.py", args: ["a"] });
    expect(r).toMatchObject({ exitCode: 0, stdout: "ran x ['a']\n" });
  });

  it("covers a SCRIPTS folder in another case and one reached through a symlink", async () => {
    const other = path.join(root, "other");
    fs.mkdirSync(path.join(other, "lib"), { recursive: true });
    fs.writeFileSync(path.join(other, "lib", "y.py"), `# ${MARK}\n`);
    fs.symlinkSync("lib", path.join(other, "scripts"));
    fs.mkdirSync(path.join(other, "Scripts2"));
    const r = await sandbox.run({ skillDir: other, scratchDir: scratch, command: "cat /skill/scripts/y.py /skill/lib/y.py 2>&1; echo done" });
    expect(r.stdout).toContain("done");
    expect(r.stdout).not.toContain(MARK);
  });

  it.skipIf(!fs.existsSync("/usr/bin/prlimit"))("in unsafe mode refuses a command while the skill has scripts, and still runs the script", async () => {
    const sb = createSandbox({ bwrapPath: "/nonexistent/bwrap", unsafe: true });
    try {
      expect((await sb.status()).mode).toBe("unsafe");
      const r = await sb.run({ skillDir: skill, scratchDir: scratch, command: "cat /dev/null" });
      expect(r.refused).toMatch(/cannot be kept from reading the skill's scripts/);
      const s = await sb.run({ skillDir: skill, scratchDir: scratch, script: "scripts/x.py" });
      expect(s.stdout).toBe("ran x []\n");
    } finally {
      await sb.close();
    }
  });
});
