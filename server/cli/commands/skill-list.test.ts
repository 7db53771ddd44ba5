// The registry commands (list, install, deploy) as a person runs them: the real bin, real folders.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempLayers, type TempLayers, writeSkill } from "../../runtime/registry/test-support/registry";

const repo = path.resolve(import.meta.dirname, "../../..");
let t: TempLayers;

function omniforge(...args: string[]) {
  return omniforgeWith({}, ...args);
}

function omniforgeWith(env: Record<string, string>, ...args: string[]) {
  const r = spawnSync(process.execPath, [path.join(repo, "bin/omniforge.mjs"), ...args, "--home", t.home, "--project", t.project], {
    cwd: t.base,
    encoding: "utf8",
    env: { ...process.env, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "", OMNIFORGE_DEFAULT_ENVIRONMENT: "", ...env },
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  t = tempLayers();
  writeSkill(path.join(t.home, "enterprise", "skills"), "code-review");
  writeSkill(path.join(t.project, ".claude", "skills"), "code-review", { extra: "priority: 9" });
  writeSkill(path.join(t.project, ".omniforge", "skills"), "broken", { raw: "---\nname: broken\ndescription: [oops\n---\n" });
  writeSkill(path.join(t.project, ".omniforge", "skills"), "notes");
});
afterAll(() => t.cleanup());

describe("omniforge skill list", () => {
  it("prints a table with layer, status, what shadows it and diagnostics, plus the broken file's error", () => {
    const r = omniforge("skill", "list");
    expect(r.code).toBe(0);
    const lines = r.out.split("\n");
    expect(lines[0]).toMatch(/^NAME\s+LAYER\s+STATUS\s+SHADOWED BY\s+DIAGNOSTICS\s+PATH$/);
    expect(lines.find((l) => l.startsWith("code-review") && l.includes("project"))).toMatch(/shadowed\s+enterprise\s/);
    expect(lines.find((l) => l.startsWith("code-review") && l.includes("enterprise"))).toMatch(/active\s+-\s/);
    expect(lines.find((l) => l.startsWith("broken"))).toMatch(/invalid.*1 \(1 error\)/);
    expect(r.out).toContain("invalid: broken (project): does not load:");
    expect(r.out).toContain("4 definitions, 2 active skills");
  });

  it("--json prints one array with every definition", () => {
    const r = omniforge("skill", "list", "--json");
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.out) as { name: string; layer: string; status: string; active: { layer: string } | null }[];
    expect(rows.map((x) => `${x.name}/${x.layer}/${x.status}`).sort()).toEqual([
      "broken/project/invalid",
      "code-review/enterprise/active",
      "code-review/project/shadowed",
      "notes/project/active",
    ]);
    expect(rows.find((x) => x.name === "code-review" && x.layer === "project")!.active!.layer).toBe("enterprise");
  });

  it("lists names in the same order in the table and the JSON, names of digits included", () => {
    const extra = tempLayers();
    try {
      for (const name of ["9", "10", "abc"]) writeSkill(path.join(extra.home, "enterprise", "skills"), name);
      const run = (...args: string[]) =>
        spawnSync(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "skill", "list", ...args, "--home", extra.home, "--project", extra.project], {
          encoding: "utf8",
          env: { ...process.env, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "", OMNIFORGE_DEFAULT_ENVIRONMENT: "" },
        }).stdout;
      const fromJson = (JSON.parse(run("--json")) as { name: string }[]).map((r) => r.name);
      const fromTable = run().split("\n").slice(1).filter((l) => /^\S+\s+enterprise/.test(l)).map((l) => l.split(/\s+/)[0]);
      expect(fromJson).toEqual(["10", "9", "abc"]);
      expect(fromTable).toEqual(fromJson);
    } finally {
      extra.cleanup();
    }
  });

  it("--jsonl prints the same objects one per line; --json and --jsonl together are a usage error", () => {
    const array = JSON.parse(omniforge("skill", "list", "--json").out) as unknown[];
    const r = omniforge("skill", "list", "--jsonl");
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split("\n");
    expect(lines).toHaveLength(array.length);
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual(array);
    const both = omniforge("skill", "list", "--json", "--jsonl");
    expect(both.code).toBe(2);
    expect(both.err).toContain("give --json or --jsonl, not both");
  });

  it("keeps its last listing in the cache folder (0600), and a listing after an edit shows the edit", () => {
    const cache = path.join(t.base, "list-cache");
    const env = { OMNIFORGE_CACHE_DIR: cache };
    const first = omniforgeWith(env, "skill", "list", "--json");
    expect(first.code).toBe(0);
    const files = fs.readdirSync(cache);
    expect(files).toHaveLength(1);
    expect(fs.statSync(path.join(cache, files[0]!)).mode & 0o777).toBe(0o600);
    const dir = writeSkill(path.join(t.project, ".omniforge", "skills"), "cached", { description: "First words. Use when testing the cache." });
    omniforgeWith(env, "skill", "list", "--json");
    fs.writeFileSync(path.join(dir, "SKILL.md"), fs.readFileSync(path.join(dir, "SKILL.md"), "utf8").replace("First words.", "Other words."));
    const after = omniforgeWith(env, "skill", "list", "--json");
    const row = (JSON.parse(after.out) as { name: string; description: string }[]).find((x) => x.name === "cached")!;
    expect(row.description).toBe("Other words. Use when testing the cache.");
    expect(after.out).toBe(omniforgeWith({ OMNIFORGE_CACHE_DIR: "off" }, "skill", "list", "--json").out);
    fs.rmSync(dir, { recursive: true });
  });

  it("a named pipe in the cached listing's place is passed over, not waited on", () => {
    const cache = path.join(t.base, "fifo-cache");
    expect(omniforgeWith({ OMNIFORGE_CACHE_DIR: cache }, "skill", "list", "--json").code).toBe(0);
    const [file] = fs.readdirSync(cache);
    fs.rmSync(path.join(cache, file!));
    spawnSync("mkfifo", ["-m", "600", path.join(cache, file!)]);
    const r = spawnSync(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "skill", "list", "--json", "--home", t.home, "--project", t.project], {
      cwd: t.base,
      encoding: "utf8",
      env: { ...process.env, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "", OMNIFORGE_CACHE_DIR: cache },
      timeout: 20_000,
    });
    expect([r.signal, r.status]).toEqual([null, 0]);
    expect(JSON.parse(r.stdout)).toHaveLength(4);
  });

  it("a listing checks the frontmatter; the body's checks are validate's", () => {
    const dir = writeSkill(path.join(t.project, ".omniforge", "skills"), "escaper", { body: "Read [the keys](../../../etc/passwd).\n" });
    const row = (JSON.parse(omniforge("skill", "list", "--json").out) as { name: string; valid: boolean; diagnostics: { code: string }[] }[]).find(
      (x) => x.name === "escaper",
    )!;
    expect(row.valid).toBe(true);
    expect(row.diagnostics.map((d) => d.code)).not.toContain("body.path-escape");
    const v = spawnSync(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "skill", "validate", "--rules", "omniforge", dir], { encoding: "utf8" });
    expect(v.status).toBe(1);
    expect(v.stdout).toContain("body.path-escape");
    fs.rmSync(dir, { recursive: true });
  });

  it("--policy and --env show blocked and out-of-scope definitions", () => {
    writeSkill(path.join(t.home, "skills"), "prod-only", { extra: "scope:\n  environments: [prod]" });
    const policy = path.join(t.base, "policy.json");
    fs.writeFileSync(policy, JSON.stringify({ blockedNames: ["notes"] }));
    const rows = JSON.parse(omniforge("skill", "list", "--json", "--policy", policy, "--env", "dev").out) as { name: string; status: string; reason: string }[];
    expect(rows.find((x) => x.name === "notes")).toMatchObject({ status: "blocked" });
    expect(rows.find((x) => x.name === "prod-only")!.reason).toContain('this context\'s environment is "dev"');
    fs.rmSync(path.join(t.home, "skills", "prod-only"), { recursive: true });
  });

  it("--policy refuses a wrong file with one line and exit 2, as policy import does, instead of crashing or ignoring it", () => {
    const policy = path.join(t.base, "bad-policy.json");
    for (const [json, problem] of [
      ['{"blockedNames":5}', "blockedNames: must be a list"],
      ['{"blockednames":["notes"]}', "blockednames: unknown field"],
    ]) {
      fs.writeFileSync(policy, json!);
      const r = omniforge("skill", "list", "--policy", policy);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(new RegExp(`^omniforge skill list: the policy file \\S+bad-policy\\.json was refused: ${problem}[^\\n]*\\n$`));
      expect(r.out).toBe("");
    }
  });

  it("--environment is the flag's one spelling, --env its alias: both give the same context", () => {
    writeSkill(path.join(t.home, "skills"), "prod-only", { extra: "scope:\n  environments: [prod]" });
    const statusWith = (...flags: string[]) =>
      (JSON.parse(omniforge("skill", "list", "--json", ...flags).out) as { name: string; status: string }[]).find((x) => x.name === "prod-only")!.status;
    expect(statusWith("--environment", "prod")).toBe("active");
    expect(statusWith("--env", "prod")).toBe("active");
    expect(statusWith("--environment", "dev")).not.toBe("active");
    expect(omniforge("skill", "list", "--help").out).toContain("--environment NAME");
    fs.rmSync(path.join(t.home, "skills", "prod-only"), { recursive: true });
  });

  // The settings reader is loaded only when one of these is set (a start without them skips zod): set, it applies.
  it("OMNIFORGE_DEFAULT_ENVIRONMENT is the context of a listing that names none; a bad value stops it, named", () => {
    writeSkill(path.join(t.home, "skills"), "prod-only", { extra: "scope:\n  environments: [prod]" });
    const statusWith = (env: Record<string, string>, ...flags: string[]) =>
      (JSON.parse(omniforgeWith(env, "skill", "list", "--json", ...flags).out) as { name: string; status: string }[]).find((x) => x.name === "prod-only")!.status;
    expect(statusWith({})).toBe("out-of-scope");
    expect(statusWith({ OMNIFORGE_DEFAULT_ENVIRONMENT: "prod" })).toBe("active");
    expect(statusWith({ OMNIFORGE_DEFAULT_ENVIRONMENT: "prod" }, "--environment", "dev")).toBe("out-of-scope");
    const bad = omniforgeWith({ OMNIFORGE_DEFAULT_ENVIRONMENT: "a b" }, "skill", "list");
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("OMNIFORGE_DEFAULT_ENVIRONMENT");
    fs.rmSync(path.join(t.home, "skills", "prod-only"), { recursive: true });
  });

  it("usage errors exit 2 with a clear line", () => {
    const r = omniforge("skill", "list", "--bogus");
    expect(r.code).toBe(2);
    expect(r.err.split("\n")[0]).toBe("omniforge skill list: Unknown option '--bogus'");
  });
});

// A typo in --home or --project listed, searched or evaluated without that layer, exit 0. Every command that takes
// them says so in one line, exit 2 (search and doctor still print their usage under it).
describe("a --home or --project that is no folder", () => {
  const run = (args: string[], env: Record<string, string> = {}) => {
    const r = spawnSync(process.execPath, [path.join(repo, "bin/omniforge.mjs"), ...args], {
      cwd: t.base,
      encoding: "utf8",
      env: { ...process.env, HOME: t.base, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "", ...env },
      timeout: 60_000,
    });
    return { code: r.status, err: r.stderr };
  };
  const COMMANDS = [
    ["skill", "list"],
    ["skill", "search", "review code"],
    ["skill", "eval", "notes"],
    ["skill", "doctor"],
    ["skill", "deploy", "notes", "--scope", "personal"],
    ["agent", "run", "hello"],
    ["policy", "list"],
  ];
  it.each([
    ["--project", "/nonexistent"],
    ["--project", "/etc/passwd"],
    ["--home", "/nonexistent"],
    ["--home", "/etc/passwd"],
  ])("%s %s: exit 2, saying so", (flag, value) => {
    const other = flag === "--home" ? ["--project", t.project] : ["--home", t.home];
    for (const cmd of COMMANDS) {
      const r = run([...cmd, flag, value, ...other]);
      const name = cmd.slice(0, cmd[0] === "skill" || cmd[0] === "agent" || cmd[0] === "policy" ? 2 : 1).join(" ");
      expect([cmd.join(" "), r.code, r.err.split("\n")[0]]).toEqual([cmd.join(" "), 2, `omniforge ${name}: ${flag} ${value}: not a folder`]);
      if (cmd[1] !== "search" && cmd[1] !== "doctor") expect(r.err.split("\n")).toHaveLength(2);
    }
  });

  it("OMNIFORGE_PROJECT_ROOT is checked as --project is; a data home left to its default may not exist yet", () => {
    const r = run(["skill", "list", "--home", t.home], { OMNIFORGE_PROJECT_ROOT: "/nonexistent" });
    expect([r.code, r.err]).toEqual([2, "omniforge skill list: OMNIFORGE_PROJECT_ROOT=/nonexistent: not a folder\n"]);
    expect(run(["skill", "list", "--project", t.project]).code).toBe(0); // HOME has no .omniforge
  });

  it("a token create with no such --home says so too", () => {
    const r = run(["token", "create", "--email", "a@b.c", "--scope", "catalog:read", "--home", "/nonexistent"]);
    expect([r.code, r.err.split("\n")[0]]).toEqual([2, "omniforge token create: --home /nonexistent: not a folder"]);
  });
});

describe("a first listing of a large catalog", () => {
  let big: TempLayers;
  beforeAll(() => {
    big = tempLayers();
    const roots = [path.join(big.home, "enterprise", "skills"), path.join(big.home, "skills"), path.join(big.project, ".claude", "skills")];
    for (let i = 0; i < 2400; i++) writeSkill(roots[i % 3]!, `skill-${i % 800}`, { rel: `group-${i % 40}/skill-${i}`, extra: `priority: ${i % 4}` });
    fs.symlinkSync(path.join(big.base), path.join(roots[2]!, "group-1", "escape"));
  }, 60_000);
  afterAll(() => big.cleanup());

  const list = (thread: string) =>
    spawnSync(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "skill", "list", "--json", "--stats", "--home", big.home, "--project", big.project], {
      cwd: big.base,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "", OMNIFORGE_CACHE_DIR: "off", OMNIFORGE_SCAN_THREAD: thread },
      timeout: 60_000,
    });

  it("walks and reads on a second thread while checking on the first, with the same output as one thread", () => {
    const two = list("1");
    const one = list("0");
    expect(two.status).toBe(0);
    expect(one.status).toBe(0);
    expect(JSON.parse(two.stdout)).toHaveLength(2401);
    expect(two.stdout).toBe(one.stdout);
    expect(one.stderr).toMatch(/2,401 definitions; 2,400 SKILL\.md files read and checked, 0 entries reused from the last listing; all on one thread; [\d,]+ ms/);
    const helped = /the walk in ([\d,]+) parts, ([\d,]+) parts? walked and read by a second thread/.exec(two.stderr);
    expect(helped, two.stderr).not.toBeNull();
    expect(Number(helped![2]!.replace(/,/g, ""))).toBeGreaterThan(0);
  }, 60_000);
});

describe("omniforge skill install", () => {
  it("installs a .tar.gz into the plugin layer; list shows it; a second install needs --force", () => {
    const src = writeSkill(path.join(t.base, "src"), "pdf-tools");
    const archive = path.join(t.base, "pdf-tools.tar.gz");
    execFileSync("tar", ["-czf", archive, "pdf-tools"], { cwd: path.dirname(src) });
    const r = omniforge("skill", "install", archive, "--plugin", "docs-pack");
    expect(r.code).toBe(0);
    expect(r.out).toContain(`installed "pdf-tools" as plugin "docs-pack"`);
    expect(fs.existsSync(path.join(t.home, "plugins", "docs-pack", "skills", "pdf-tools", "SKILL.md"))).toBe(true);
    const rows = JSON.parse(omniforge("skill", "list", "--json").out) as { name: string; layer: string; plugin?: string; status: string }[];
    expect(rows.find((x) => x.name === "pdf-tools")).toMatchObject({ layer: "plugin", plugin: "docs-pack", status: "active" });
    const again = omniforge("skill", "install", archive, "--plugin", "docs-pack");
    expect(again.code).toBe(1);
    expect(again.err).toContain("already installed");
    expect(omniforge("skill", "install", archive, "--plugin", "docs-pack", "--force").code).toBe(0);
  });

  it("refuses a zip-slip archive with exit 1 and writes nothing", () => {
    const dir = path.join(t.base, "slip", "inner");
    writeSkill(path.dirname(dir), "inner");
    fs.writeFileSync(path.join(t.base, "slip", "evil.txt"), "x");
    const archive = path.join(t.base, "slip.tar.gz");
    execFileSync("tar", ["-cPzf", archive, "SKILL.md", "../evil.txt"], { cwd: dir });
    const before = fs.readdirSync(path.join(t.home, "plugins")).sort();
    const r = omniforge("skill", "install", archive);
    expect(r.code).toBe(1);
    expect(r.err).toContain("zip-slip");
    expect(fs.readdirSync(path.join(t.home, "plugins")).sort()).toEqual(before);
  });

  it("a missing source is exit 2", () => {
    const r = omniforge("skill", "install");
    expect(r.code).toBe(2);
    expect(r.err).toContain("missing the folder or archive to install");
  });
});

describe("omniforge skill deploy", () => {
  it("copies a definition into a layer and says what changes", () => {
    const r = omniforge("skill", "deploy", "notes", "--scope", "personal");
    expect(r.code).toBe(0);
    // The preview comes first: which contexts' active definition changes.
    expect(r.out).toContain(`deploy "notes": project <project>/.omniforge/skills/notes -> <home>/skills/notes`);
    expect(r.out).toContain("1 of 1 contexts change");
    expect(r.out).toContain("notes: the active definition changes from the project definition");
    expect(fs.existsSync(path.join(t.home, "skills", "notes", "SKILL.md"))).toBe(true);
    // The active definition is now the personal copy itself.
    const same = omniforge("skill", "deploy", "notes", "--scope", "personal");
    expect(same.code).toBe(1);
    expect(same.err).toContain("already is the personal copy");
    const again = omniforge("skill", "deploy", "notes", "--scope", "personal", "--from", "project");
    expect(again.code).toBe(1);
    expect(again.err).toContain("use --force");
    expect(omniforge("skill", "deploy", "notes", "--scope", "personal", "--from", "project", "--force").out).toContain(
      "(replaces the existing copy)",
    );
  });

  it("seed 000's journey as written: a skill scoped to production deploys to enterprise; a disabled one says which context refused it", () => {
    const root = path.join(t.project, ".omniforge", "skills");
    const dir = writeSkill(root, "data-handling", { extra: "scope:\n  environments: [production]" });
    const disabled = writeSkill(root, "secret-tool");
    const config = path.join(t.home, "config.yaml");
    fs.writeFileSync(config, "disabled_skills: [secret-tool]\n");
    try {
      const r = omniforge("skill", "deploy", "data-handling", "--scope", "enterprise");
      expect(r.err).toBe("");
      expect(r.code).toBe(0);
      expect(r.out).toContain("* environment=production: project -> enterprise (the copy)");
      expect(fs.existsSync(path.join(t.home, "enterprise", "skills", "data-handling", "SKILL.md"))).toBe(true);
      // A definition that is not merely out of scope is refused, naming the context and why.
      const off = omniforge("skill", "deploy", "secret-tool", "--scope", "personal", "--environment", "staging");
      expect(off.code).toBe(1);
      expect(off.err).toContain('"secret-tool" has no active definition to copy in environment=staging (project: disabled in config.yaml (disabled_skills))');
    } finally {
      for (const d of [dir, disabled, path.join(t.home, "enterprise", "skills", "data-handling"), config]) fs.rmSync(d, { recursive: true, force: true });
    }
  });

  it("--scope is required and checked (exit 2)", () => {
    expect(omniforge("skill", "deploy", "notes").code).toBe(2);
    const r = omniforge("skill", "deploy", "notes", "--scope", "plugin");
    expect(r.code).toBe(2);
    expect(r.err).toContain("--scope must be enterprise, personal or project");
  });
});
