// Seed 001's three script folders (scripts/, bin/, tools/) behind the script door (issue 37 item 2): their files
// are run, never read, by any tool; the script tools run nothing outside them. Against the real sandbox.
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { bubblewrap, describeNeeding } from "../../../test-support/needs";
import { createSandbox, type Sandbox } from "../../sandbox/index";
import { makeExecutor, makeWorld, type World } from "../test-support/tools";
import { orchestratedTools } from "./index";

const MARK = "FOLDER_SCRIPT_MARKER";

describeNeeding(bubblewrap(), "script folders scripts/, bin/ and tools/ (real bubblewrap)", () => {
  let sandbox: Sandbox;
  let world: World;
  let dir: string;
  beforeAll(async () => {
    sandbox = createSandbox();
    await sandbox.status();
  });
  afterAll(async () => sandbox?.close());
  beforeEach(() => {
    world = makeWorld();
    dir = world.writeSkill("kit", "", {
      "bin/tool.sh": `# ${MARK}\necho "bin ran $1"\n`,
      "tools/check.py": `import sys\n${MARK} = 1\nprint('tools ran', sys.argv[1])\n`,
      "run.sh": `echo "root ran"\n`,
    });
  });
  afterEach(() => world.cleanup());

  async function active() {
    const made = makeExecutor(world, sandbox, orchestratedTools());
    expect((await made.executor.execute({ name: "skill", input: { name: "kit" } })).ok).toBe(true);
    return made;
  }

  it("read_file, skills.read and search_files refuse or skip bin/ and tools/ as they do scripts/, and say to run them", async () => {
    const { executor, audit } = await active();
    for (const p of ["bin/tool.sh", "tools/check.py", "BIN/tool.sh", `${dir}/tools/check.py`]) {
      const r = await executor.execute({ name: "read_file", input: { path: p } });
      expect(r.ok, p).toBe(false);
      expect(r.output, p).not.toContain(MARK);
      expect(r.output, p).toMatch(/run it with run_script/);
      const s = await executor.execute({ name: "skills.read", input: { path: p } });
      expect(s.output, p).not.toContain(MARK);
    }
    expect(audit.events.filter((e) => e.type === "script_read_blocked").length).toBeGreaterThanOrEqual(8);
    const grep = await executor.execute({ name: "search_files", input: { pattern: MARK } });
    expect(grep.output).not.toContain(`${MARK} = 1`);
  });

  it("a shell command sees bin/ and tools/ empty, and one plain call of a script there runs it", async () => {
    const { executor } = await active();
    for (const command of ["cat /skill/bin/tool.sh", "cat /skill/tools/check.py", "grep -r FOLDER_SCRIPT /skill"]) {
      const r = await executor.execute({ name: "bash", input: { command } });
      expect(r.output, command).not.toContain(MARK);
    }
    const door = await executor.execute({ name: "bash", input: { command: "bash bin/tool.sh one" } });
    expect(door.output).toContain("bin ran one");
  });

  it("run_script and skills.run_script run files of the three folders and refuse any other file, naming the folders", async () => {
    const { executor } = await active();
    for (const name of ["run_script", "skills.run_script"]) {
      expect((await executor.execute({ name, input: { path: "bin/tool.sh", args: ["x"] } })).output).toContain("bin ran x");
      expect((await executor.execute({ name, input: { path: "tools/check.py", args: ["y"] } })).output).toContain("tools ran y");
      for (const p of ["run.sh", "SKILL.md", "references/guide.md"]) {
        const r = await executor.execute({ name, input: { path: p } });
        expect(r.ok, `${name} ${p}`).toBe(false);
        expect(r.output, `${name} ${p}`).toContain("only files under scripts/, bin/ or tools/ are run");
        expect(r.output).not.toContain("root ran");
      }
    }
  });
});
