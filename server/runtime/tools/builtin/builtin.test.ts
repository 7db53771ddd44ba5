import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ScriptRunner } from "../../sandbox/types";
import { makeExecutor, makeRunner, makeWorld, type World } from "../test-support/tools";

let runner: ScriptRunner;
let sandboxed = false;
let closeRunner: () => Promise<void>;
beforeAll(async () => {
  const r = await makeRunner();
  runner = r.runner;
  sandboxed = r.sandboxed;
  closeRunner = r.close;
});
afterAll(async () => closeRunner?.());

let world: World;
let dir: string;
beforeEach(() => {
  world = makeWorld();
  dir = world.writeSkill("tools", "", {
    "assets/logo.png": "\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
    "references/big.md": Array.from({ length: 5000 }, (_, i) => `line ${i + 1} ${"x".repeat(60)}`).join("\n"),
  });
});
afterEach(() => world.cleanup());

async function withSkill(opts: { runner?: boolean } = {}) {
  const made = makeExecutor(world, opts.runner === false ? undefined : runner);
  const r = await made.executor.execute({ name: "skill", input: { name: "tools" } });
  expect(r.ok).toBe(true);
  return made;
}

describe("read_file", () => {
  it("reads relative to the skill's base path, with offset/limit", async () => {
    const { executor } = await withSkill();
    expect((await executor.execute({ name: "read_file", input: { path: "references/guide.md" } })).output).toBe("Guide of tools\nline 2\n");
    const page = await executor.execute({ name: "read_file", input: { path: "references/big.md", offset: 10, limit: 2 } });
    expect(page.output).toBe(`line 10 ${"x".repeat(60)}\nline 11 ${"x".repeat(60)}`);
  });

  it("caps large files with a truncation marker that says how to read on", async () => {
    const { executor } = makeExecutor(world, runner);
    executor.context.maxReadBytes = 1000;
    await executor.execute({ name: "skill", input: { name: "tools" } });
    const r = await executor.execute({ name: "read_file", input: { path: "references/big.md" } });
    expect(r.ok).toBe(true);
    expect(r.output).toMatch(/\[\.\.\. truncated: showed \d+ of \d+ bytes; read on with offset=\d+\]$/);
    expect(Buffer.byteLength(r.output)).toBeLessThan(1200);
    expect(r.data).toMatchObject({ truncated: true });
  });

  it("describes binary files instead of dumping them", async () => {
    const { executor } = await withSkill();
    const r = await executor.execute({ name: "read_file", input: { path: "assets/logo.png" } });
    expect(r.output).toMatch(/^\[binary file assets\/logo\.png: \d+ bytes, PNG image; not shown as text\]$/);
  });

  it("without an active skill reads only the scratch and extra read roots; scripts stay blocked there", async () => {
    const { executor } = makeExecutor(world, runner);
    fs.writeFileSync(path.join(world.scratchDir, "mine.txt"), "scratch text");
    expect((await executor.execute({ name: "read_file", input: { path: "mine.txt" } })).output).toBe("scratch text");
    expect((await executor.execute({ name: "read_file", input: { path: path.join(dir, "SKILL.md") } })).ok).toBe(false);
    // prompt mode: the listed skill folders are readable so the model can open SKILL.md itself.
    executor.context.readRoots = [world.skillsDir];
    expect((await executor.execute({ name: "read_file", input: { path: path.join(dir, "SKILL.md") } })).output).toContain("name: tools");
    const script = await executor.execute({ name: "read_file", input: { path: path.join(dir, "scripts/report.py") } });
    expect(script.refused).toMatchObject({ skill: "tools", rule: "script-read" });
  });

  it("refuses URLs and empty paths with a clear message", async () => {
    const { executor } = await withSkill();
    expect((await executor.execute({ name: "read_file", input: { path: "https://example.com/x" } })).output).toMatch(/is a URL/);
    expect((await executor.execute({ name: "read_file", input: { path: "" } })).output).toMatch(/Invalid input/);
    expect((await executor.execute({ name: "read_file", input: { path: "missing.md" } })).output).toMatch(/File not found: missing\.md/);
  });
});

describe("write_file", () => {
  it("writes and edits inside the scratch only", async () => {
    const { executor } = await withSkill();
    expect((await executor.execute({ name: "write_file", input: { path: "out/report.md", content: "a b a" } })).ok).toBe(true);
    expect(fs.readFileSync(path.join(world.scratchDir, "out/report.md"), "utf8")).toBe("a b a");
    const twice = await executor.execute({ name: "write_file", input: { path: "out/report.md", old_string: "a", new_string: "c" } });
    expect(twice.output).toMatch(/occurs 2 times/);
    await executor.execute({ name: "write_file", input: { path: "out/report.md", old_string: "b", new_string: "B" } });
    expect(fs.readFileSync(path.join(world.scratchDir, "out/report.md"), "utf8")).toBe("a B a");
  });

  it("refuses the skill folder, traversal, absolute paths outside and symlinks in the scratch", async () => {
    const { executor } = await withSkill();
    fs.symlinkSync(world.outsideDir, path.join(world.scratchDir, "outlink"));
    for (const p of [path.join(dir, "SKILL.md"), "../skills/tools/SKILL.md", "../outside/new.txt", "/etc/evil", "outlink/new.txt"]) {
      const r = await executor.execute({ name: "write_file", input: { path: p, content: "pwned" } });
      expect(r.ok, p).toBe(false);
    }
    expect(fs.readFileSync(path.join(dir, "SKILL.md"), "utf8")).not.toContain("pwned");
    expect(fs.readdirSync(world.outsideDir)).toEqual(["secret.txt"]);
    // A symlink as the target itself is replaced by a file, never written through.
    fs.symlinkSync(path.join(world.outsideDir, "secret.txt"), path.join(world.scratchDir, "link.txt"));
    expect((await executor.execute({ name: "write_file", input: { path: "link.txt", old_string: "TOP", new_string: "X" } })).ok).toBe(false);
    expect((await executor.execute({ name: "write_file", input: { path: "link.txt", content: "new" } })).ok).toBe(true);
    expect(fs.readFileSync(path.join(world.outsideDir, "secret.txt"), "utf8")).toContain("TOP-SECRET");
    expect(fs.lstatSync(path.join(world.scratchDir, "link.txt")).isSymbolicLink()).toBe(false);
  });
});

describe("list_files", () => {
  it("lists names (scripts included), marks links that leave, and filters by glob", async () => {
    fs.symlinkSync(world.outsideDir, path.join(dir, "out"));
    const { executor } = await withSkill();
    const all = await executor.execute({ name: "list_files", input: { recursive: true } });
    expect(all.output).toContain("scripts/report.py");
    expect(all.output).toMatch(/out -> .* \(points outside the allowed folders\)/);
    expect(all.output).not.toContain("secret.txt");
    const md = await executor.execute({ name: "list_files", input: { pattern: "**/*.md" } });
    expect(md.output.split("\n").slice(1).every((l) => l.includes(".md"))).toBe(true);
    expect(md.output).toContain("references/guide.md");
    expect((await executor.execute({ name: "list_files", input: { path: "out" } })).ok).toBe(false);
  });
});

describe("run_script and bash", () => {
  it("run_script returns exit code, output and whether it was sandboxed", async () => {
    const { executor, audit } = await withSkill();
    const r = await executor.execute({ name: "run_script", input: { script: "scripts/report.py", args: ["q1"] } });
    expect(r.ok).toBe(true);
    expect(r.output).toContain("report q1");
    expect(r.data).toMatchObject({ exitCode: 0, sandboxed });
    const f = await executor.execute({ name: "run_script", input: { script: "scripts/fail.sh" } });
    expect(f.ok).toBe(false);
    expect(JSON.parse(f.output)).toMatchObject({ path: "scripts/fail.sh", exit_code: 3 });
    expect(f.output).toContain("failing");
    expect(audit.events.filter((e) => e.type === "script_executed").map((e) => e.outcome)).toEqual(["ok", "failed"]);
  });

  it("run_script refuses paths that leave the skill folder", async () => {
    fs.symlinkSync(path.join(world.outsideDir, "secret.txt"), path.join(dir, "scripts", "escape.sh"));
    const { executor, audit } = await withSkill();
    for (const s of ["../outside/secret.txt", "scripts/../../outside/secret.txt", "/etc/passwd", "scripts/escape.sh", "scripts/missing.py"]) {
      const r = await executor.execute({ name: "run_script", input: { script: s } });
      expect(r.ok, s).toBe(false);
    }
    expect(audit.events.filter((e) => e.type === "script_executed")).toHaveLength(0);
  });

  it("bash sees the skill's host paths as /skill when isolated", async () => {
    const { executor } = await withSkill();
    const r = await executor.execute({ name: "bash", input: { command: `head -n 1 ${dir}/references/guide.md` } });
    expect(r.ok).toBe(true);
    expect(r.output).toContain("Guide of tools");
  });

  it("a file written by write_file can be changed by a later script (it belongs to the scratch's owner)", async () => {
    const { executor } = await withSkill();
    await executor.execute({ name: "write_file", input: { path: "notes/log.txt", content: "first\n" } });
    const r = await executor.execute({ name: "bash", input: { command: "echo second >> notes/log.txt && cat notes/log.txt" } });
    expect(r.ok).toBe(true);
    expect(r.output).toContain("first\nsecond");
    expect((await executor.execute({ name: "read_file", input: { path: path.join(world.scratchDir, "notes/log.txt") } })).output).toBe("first\nsecond\n");
  });

  it("without a runner, script tools explain that scripts cannot run", async () => {
    const { executor } = await withSkill({ runner: false });
    const r = await executor.execute({ name: "run_script", input: { script: "scripts/report.py" } });
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/Scripts cannot run in this session/);
  });
});
