// The console's skill templates as the playground meets them with no model configured: a new skill made from the
// script template runs its script under the offline provider (the template writes the command as inline code), and
// the demo skill that does the same plans its run.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryAuditSink } from "../../runtime/audit/events";
import { runAgent } from "../../runtime/agent/loop";
import { OfflineProvider } from "../../runtime/agent/offline";
import { planActions } from "../../runtime/agent/offline-plan";
import { makeAgentWorld, useRealRunner, type AgentWorld } from "../../runtime/agent/test-support/agent";
import type { AgentEvent } from "../../runtime/agent/types";
import { checkSkillDir } from "../../runtime/skill/check";
import { DEMO_SKILLS } from "../demo/skills";
import { SKILL_TEMPLATES, templateById } from "./templates";

let world: AgentWorld;
const bed = useRealRunner();

beforeAll(() => {
  world = makeAgentWorld();
});

afterAll(() => {
  world?.cleanup();
});

/** Writes a template's files as the console's "New skill" does, into the world's project layer. */
function fromTemplate(id: string, name: string, description: string): string {
  const dir = path.join(world.project, ".omniforge", "skills", name);
  for (const f of templateById(id)!.files(name, description)) {
    fs.mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
    fs.writeFileSync(path.join(dir, f.path), f.text, { mode: f.executable ? 0o755 : 0o644 });
  }
  return dir;
}

describe("skill templates", () => {
  it("each starts valid under the omniforge rules", () => {
    for (const t of SKILL_TEMPLATES) {
      const dir = fromTemplate(t.id, `start-${t.id}`, "Starts a skill from a template. Use when testing templates.");
      expect(checkSkillDir(dir, { rules: "omniforge" }).diagnostics, t.id).toEqual([]);
    }
  });

  it("a skill from the script template runs its script offline, sandboxed, and reports its output", async () => {
    fromTemplate("with-script", "greet-team", "Greets the team with a hello message. Use when asked to greet the team.");
    const result = await runAgent({
      request: "greet the team",
      mode: "tool",
      provider: new OfflineProvider(),
      skills: { index: world.index() },
      runner: bed.runner,
      audit: new MemoryAuditSink(),
      scratchDir: world.scratch,
      sessionId: "s",
      userId: "u",
    });
    expect(result.events.find((e) => e.type === "skill_activated")).toMatchObject({ skill: "greet-team" });
    const script = result.events.find((e) => e.type === "script_run") as Extract<AgentEvent, { type: "script_run" }> | undefined;
    expect(script).toMatchObject({ exitCode: 0, sandboxed: bed.sandboxed });
    expect(script!.stdout).toContain("hello from the skill");
    expect(result.answer).toContain("ran scripts/run.sh:");
    expect(result.answer).not.toContain("show no command to run");
  });

  it("the demo csv-insights skill's inline command is planned as a run of its script, on the file the request names", () => {
    const demo = DEMO_SKILLS.find((s) => s.dir === "csv-insights")!;
    const body = demo.files.find((f) => f.path === "SKILL.md")!.content.split("\n---\n")[1]!;
    const scripts = new Set(demo.files.map((f) => f.path));
    expect(planActions(body, "summarize data/sales.csv", "tool", (rel) => scripts.has(rel)).map((p) => p.input)).toEqual([
      { script: "scripts/summarize.py", args: ["data/sales.csv"] },
    ]);
    // No file of that kind named: the placeholder stays as written (the script then says what it lacks).
    expect(planActions(body, "summarize my spreadsheet", "tool", (rel) => scripts.has(rel)).map((p) => p.input)).toEqual([
      { script: "scripts/summarize.py", args: ["<file.csv>"] },
    ]);
  });
});
