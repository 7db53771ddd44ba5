// Restrictions as written by real public skills (shared fixtures), enforced on their own folders.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { describeNeeding, sharedDir, sharedFixture } from "../../test-support/needs";
import { MemoryAuditSink } from "../audit/events";
import { builtinTools, createSkillTool, type SkillForActivation } from "./builtin/index";
import { Executor } from "./executor";
import { parseAllowedTools } from "../skill/allowed-tools";
import { describeUnmatchedPatterns, parseToolPatterns } from "./patterns";
import { SkillStack } from "./stack";
import { makeWorld, type World } from "./test-support/tools";

const realSkills = path.join(sharedDir, "fixtures", "real-skills");

function load(rel: string): SkillForActivation {
  const dir = path.join(realSkills, rel);
  const text = fs.readFileSync(path.join(dir, "SKILL.md"), "utf8");
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n([\s\S]*)$/.exec(text)!;
  const fm = parseYaml(m[1]!) as Record<string, unknown>;
  const allowed = fm["allowed-tools"] === undefined ? undefined : parseAllowedTools(fm["allowed-tools"]);
  return {
    name: String(fm.name),
    layer: "plugin",
    digest: crypto.createHash("sha256").update(text).digest("hex"),
    baseDir: dir,
    ...(allowed ? { allowedTools: allowed } : {}),
    body: m[2]!,
  };
}

describeNeeding(sharedFixture("fixtures/real-skills"), "allowed-tools of real skills", () => {
  let world: World;
  beforeEach(() => {
    world = makeWorld();
  });
  afterEach(() => world.cleanup());

  const CASES = [
    { rel: "getsentry__skills/skill-scanner", patterns: ["Read", "Grep", "Glob", "Bash"], unmatched: [] as string[] },
    { rel: "getsentry__skills/django-perf-review", patterns: ["Read", "Grep", "Glob", "Bash", "Task"], unmatched: ["Task"] },
    { rel: "github__awesome-copilot/qdrant-scaling", patterns: ["Read", "Grep", "Glob"], unmatched: [] },
    { rel: "K-Dense-AI__claude-scientific-skills/timesfm-forecasting", patterns: ["Read", "Write", "Edit", "Bash"], unmatched: [] },
  ];
  for (const c of CASES) {
    it(`${c.rel}: patterns read as written, unmatched ones reported`, () => {
      const s = load(c.rel);
      expect(s.allowedTools).toEqual(c.patterns);
      expect(describeUnmatchedPatterns(parseToolPatterns(s.allowedTools)).map((w) => w.raw)).toEqual(c.unmatched);
    });
  }

  function executorFor(...rels: string[]) {
    const skills = new Map(rels.map((r) => [load(r).name, load(r)]));
    const audit = new MemoryAuditSink();
    const executor = new Executor({
      tools: [...builtinTools(), createSkillTool({ resolve: (n) => skills.get(n) ?? null })],
      audit,
      context: { sessionId: "s", userId: "u", scratchDir: world.scratchDir, stack: new SkillStack() },
    });
    return { executor, audit, names: [...skills.keys()] };
  }

  it("qdrant-scaling (Read, Grep, Glob) may read, search and list its folder, but not write or run commands", async () => {
    const { executor, names } = executorFor("github__awesome-copilot/qdrant-scaling");
    expect((await executor.execute({ name: "skill", input: { name: names[0] } })).ok).toBe(true);
    expect((await executor.execute({ name: "read_file", input: { path: "scaling-qps/SKILL.md" } })).ok).toBe(true);
    expect((await executor.execute({ name: "list_files", input: { pattern: "**/SKILL.md" } })).output).toContain("scaling-data-volume/SKILL.md");
    expect((await executor.execute({ name: "search_files", input: { pattern: "replica", ignore_case: true } })).ok).toBe(true);
    expect((await executor.execute({ name: "write_file", input: { path: "x.md", content: "x" } })).refused?.skill).toBe(names[0]);
    expect((await executor.execute({ name: "bash", input: { command: "ls" } })).refused?.skill).toBe(names[0]);
  });

  it("timesfm-forecasting (Read Write Edit Bash) may write the scratch but not list (no Glob)", async () => {
    const { executor, names } = executorFor("K-Dense-AI__claude-scientific-skills/timesfm-forecasting");
    await executor.execute({ name: "skill", input: { name: names[0] } });
    expect((await executor.execute({ name: "read_file", input: { path: "references/api_reference.md", limit: 3 } })).ok).toBe(true);
    expect((await executor.execute({ name: "write_file", input: { path: "forecast.md", content: "ok" } })).ok).toBe(true);
    expect((await executor.execute({ name: "list_files", input: {} })).refused?.rule).toBe("allowed-tools");
  });

  it("two real skills together allow only what both allow", async () => {
    const { executor } = executorFor("K-Dense-AI__claude-scientific-skills/timesfm-forecasting", "github__awesome-copilot/qdrant-scaling");
    await executor.execute({ name: "skill", input: { name: "timesfm-forecasting" } });
    await executor.execute({ name: "skill", input: { name: "qdrant-scaling" } });
    // Glob: only qdrant allows it. Write: only timesfm allows it. Read: both.
    expect((await executor.execute({ name: "list_files", input: {} })).refused?.skill).toBe("timesfm-forecasting");
    expect((await executor.execute({ name: "write_file", input: { path: "a", content: "a" } })).refused?.skill).toBe("qdrant-scaling");
    expect((await executor.execute({ name: "read_file", input: { path: "SKILL.md" } })).output).toContain("name: qdrant-scaling");
  });
});
