import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ScriptRunner } from "../../sandbox/types";
import { makeExecutor, makeRunner, makeWorld, type World } from "../test-fixtures";
import { orchestratedTools } from "./index";

let runner: ScriptRunner;
let closeRunner: () => Promise<void>;
beforeAll(async () => {
  const r = await makeRunner();
  runner = r.runner;
  closeRunner = r.close;
});
afterAll(async () => closeRunner?.());

let world: World;
beforeEach(() => {
  world = makeWorld();
  world.writeSkill("pdf", "allowed-tools: Read\n", { "references/forms.md": "Fill the form." });
  world.writeSkill("data");
});
afterEach(() => world.cleanup());

async function loaded() {
  const made = makeExecutor(world, runner, orchestratedTools());
  await made.executor.execute({ name: "skill", input: { name: "pdf" } });
  await made.executor.execute({ name: "skill", input: { name: "data" } });
  return made;
}

describe("skills.read / skills.run_script", () => {
  it("read a loaded skill's file by skill name; Read allows skills.read, not skills.run_script", async () => {
    const { executor } = await loaded();
    const r = await executor.execute({ name: "skills.read", input: { skill: "pdf", path: "references/forms.md" } });
    expect(r.ok).toBe(true);
    expect(r.output).toBe("Fill the form.");
    const run = await executor.execute({ name: "skills.run_script", input: { skill: "data", path: "scripts/report.py" } });
    expect(run.refused).toMatchObject({ skill: "pdf", rule: "allowed-tools" });
  });

  it("blocks scripts and files outside the selected skill", async () => {
    const { executor, audit } = await loaded();
    const s = await executor.execute({ name: "skills.read", input: { path: "./scripts/../scripts/report.py" } });
    expect(s.refused).toMatchObject({ skill: "data", rule: "script-read" });
    expect(audit.events.at(-1)?.type).toBe("script_read_blocked");
    const other = await executor.execute({ name: "skills.read", input: { skill: "data", path: "../pdf/references/forms.md" } });
    expect(other.ok).toBe(false);
    expect(other.output).toMatch(/not a file of skill 'data'/);
    const none = await executor.execute({ name: "skills.read", input: { skill: "ghost", path: "SKILL.md" } });
    expect(none.output).toMatch(/Skill 'ghost' is not active/);
  });

  it("runs a script of a loaded skill once nothing restricts it", async () => {
    const { executor } = await loaded();
    await executor.execute({ name: "skill", input: { name: "all", action: "deactivate" } });
    await executor.execute({ name: "skill", input: { name: "data" } });
    const run = await executor.execute({ name: "skills.run_script", input: { path: "scripts/report.py", args: ["x"] } });
    expect(run.ok).toBe(true);
    expect(run.output).toContain("report x");
  });
});
