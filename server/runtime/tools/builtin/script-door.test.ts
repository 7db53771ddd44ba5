// The bash tool against the real sandbox: no spelling reads a script, and a skill's own
// `python3 scripts/x.py` still runs through the script door.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bubblewrap, describeNeeding } from "../../../test-support/needs";
import { createSandbox, type Sandbox } from "../../sandbox/index";
import { makeExecutor, makeWorld, type World } from "../test-support/tools";
import { isPlainCommand, scriptDoorCall } from "./script-door";

const MARK = "SCRIPT_BODY_MARKER";

describe("scriptDoorCall", () => {
  let world: World;
  let skill: { name: string; baseDir: string };
  beforeEach(() => {
    world = makeWorld();
    skill = { name: "tools", baseDir: world.writeSkill("tools") };
  });
  afterEach(() => world.cleanup());
  const door = (c: string) => scriptDoorCall(c, skill as never);

  it("takes one interpreter call of one script with plain arguments, however the skill spells its path", () => {
    expect(door("python3 scripts/report.py --in 'a b.csv'")).toEqual({ script: "scripts/report.py", args: ["--in", "a b.csv"] });
    expect(door("python ./scripts/report.py")).toEqual({ script: "scripts/report.py", args: [] });
    expect(door(`/usr/bin/python3 ${skill.baseDir}/scripts/report.py x`)).toEqual({ script: "scripts/report.py", args: ["x"] });
    expect(door("python3 /skill/scripts/report.py")).toEqual({ script: "scripts/report.py", args: [] });
    expect(door("bash scripts/fail.sh")).toEqual({ script: "scripts/fail.sh", args: [] });
    expect(door("./scripts/fail.sh 1")).toEqual({ script: "scripts/fail.sh", args: ["1"] });
  });

  it("leaves everything else to the general shell", () => {
    for (const c of [
      "python3 scripts/report.py | cat",
      "python3 scripts/report.py > out.txt",
      "python3 scripts/report.py; cat scripts/report.py",
      "python3 scripts/report.py $(cat scripts/report.py)",
      "python3 scripts/report.py `id`",
      "python3 scripts/report.py $HOME",
      'python3 scripts/report.py "$HOME"',
      "python3 s*/report.py",
      "python3 -c 'print(1)' scripts/report.py",
      "python3 -i scripts/report.py",
      "cat scripts/report.py",
      "bash scripts/report.py",
      "python3 references/guide.md",
      "python3 scripts/../../outside/secret.txt",
      "A=1 python3 scripts/report.py",
      "python3 scripts/report.py ~/x",
      "python3 scripts/report.py\nid",
    ]) {
      expect(door(c), c).toBeNull();
    }
    expect(isPlainCommand("python3 'it''s' \"plain\" --x=1")).toBe(true);
    expect(isPlainCommand("echo 'open")).toBe(false);
  });
});

describeNeeding(bubblewrap(), "bash tool and scripts/ (real bubblewrap)", () => {
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
    dir = world.writeSkill("tools");
  });
  afterEach(() => world.cleanup());

  async function active() {
    const made = makeExecutor(world, sandbox);
    expect((await made.executor.execute({ name: "skill", input: { name: "tools" } })).ok).toBe(true);
    return made;
  }

  const spellings = () => [
    "cat /skill/scripts/report.py",
    `cat ${dir}/scripts/report.py`,
    "cat /skill/s*/report.py",
    "cd /skill && cat s*/report.py",
    "cd /skill && cat ./scripts/../scripts/report.py",
    `cat "/skill/scr"'ipts'/report.py`,
    "p=/skill/scr; cat ${p}ipts/report.py",
    `python3 -c "print(open('/skill/scr'+'ipts/report.py').read())"`,
    `cd /skill && python3 -c "print(open('scr'+'ipts/report.py').read())"`,
    "grep -r MARKER /skill",
  ];

  it("no spelling of a path shows a script's text", async () => {
    const { executor } = await active();
    for (const command of spellings()) {
      const r = await executor.execute({ name: "bash", input: { command } });
      expect(r.output, command).not.toContain(MARK);
      expect(r.refused, command).toBeUndefined();
    }
  });

  it("a failed command that names scripts/ says how scripts are run", async () => {
    const { executor } = await active();
    const r = await executor.execute({ name: "bash", input: { command: "cat /skill/scripts/report.py" } });
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/scripts\/ folder is empty in the shell.*run_script/);
  });

  it("runs the skill's own `python3 scripts/x.py` through the script door, audited as a script run", async () => {
    const { executor, audit } = await active();
    const r = await executor.execute({ name: "bash", input: { command: "python3 scripts/report.py q1 'two words'" } });
    expect(r.ok).toBe(true);
    expect(r.output).toContain("report q1 two words");
    const host = await executor.execute({ name: "bash", input: { command: `python3 ${dir}/scripts/report.py q2` } });
    expect(host.output).toContain("report q2");
    const ran = audit.events.filter((e) => e.type === "script_executed");
    expect(ran.length).toBeGreaterThanOrEqual(2);
    // Other commands still work in the general shell.
    const ls = await executor.execute({ name: "bash", input: { command: "ls /skill/references && ls -A /skill/scripts | wc -l" } });
    expect(ls.output).toMatch(/guide\.md[\s\S]*\b0\b/);
  });
});
