// `omniforge skill validate | read-properties | to-prompt` as a person or CI runs them: the real bin, real folders.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { CliIO } from "../io";
import { display } from "./skill-validate";

const repo = path.resolve(import.meta.dirname, "../../..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-cli-skill-"));
const realTmp = fs.realpathSync(tmp); // the bin's cwd, as process.cwd() reports it
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function omniforge(...args: string[]) {
  const r = spawnSync(process.execPath, [path.join(repo, "bin/omniforge.mjs"), ...args], { cwd: tmp, encoding: "utf8", timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function write(rel: string, content: string) {
  fs.mkdirSync(path.join(tmp, rel), { recursive: true });
  fs.writeFileSync(path.join(tmp, rel, "SKILL.md"), content);
}

write("skills/good", "---\nname: good\ndescription: 'Use <b> & \"q\" when it''s needed.'\n---\n# Good\n");
write("skills/bad", "---\nname: Bad_Name\ndescription: x\n---\n");
write("skills/vendor", "---\nname: vendor\ndescription: Has a Claude Code field.\nargument-hint: '[file]'\n---\n");
write("skills/good/nested/inner", "---\nname: inner\ndescription: A nested skill.\n---\n");
write("skills/broken", "---\nname: broken\n");

describe("omniforge skill validate", () => {
  it("exit 0 for a valid skill, with one block naming it", () => {
    const r = omniforge("skill", "validate", "skills/good");
    expect(r.code).toBe(0);
    expect(r.out).toContain(`${path.join("skills", "good", "SKILL.md")}: valid (good)`);
  });

  it("exit 1 for an invalid one, with path:line:col severity code message", () => {
    const r = omniforge("skill", "validate", "skills/bad/SKILL.md", "skills/good");
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/skills\/bad\/SKILL\.md:2:7 error name\.case name "Bad_Name" must be lowercase/);
    expect(r.out).toContain("2 skills checked (rules: spec): 1 valid, 1 invalid");
  });

  it("--rules omniforge turns vendor fields into warnings", () => {
    expect(omniforge("skill", "validate", "skills/vendor").code).toBe(1);
    const r = omniforge("skill", "validate", "--rules", "omniforge", "skills/vendor");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/:4:1 warning field\.vendor "argument-hint"/);
  });

  it("--json --recursive prints one JSON line per skill found below the path", () => {
    const r = omniforge("skill", "validate", "--json", "--recursive", "skills");
    expect(r.code).toBe(1);
    const lines = r.out.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => path.relative(realTmp, l.path as string))).toEqual([
      "skills/bad",
      "skills/broken",
      "skills/good",
      "skills/good/nested/inner",
      "skills/vendor",
    ]);
    for (const l of lines) expect(Object.keys(l)).toEqual(["path", "name", "valid", "diagnostics"]);
    const bad = lines[0]!;
    expect(bad).toMatchObject({ name: "Bad_Name", valid: false });
    expect((bad.diagnostics as unknown[])[0]).toEqual({
      severity: "error",
      code: "name.case",
      message: expect.stringContaining("lowercase"),
      line: 2,
      column: 7,
    });
    expect(lines[1]).toMatchObject({ name: null, valid: false });
  });

  it("a folder of skills, given alone, is validated skill by skill as --recursive does", () => {
    const r = omniforge("skill", "validate", "skills");
    expect(r.code).toBe(1);
    expect(r.out).not.toContain("file.missing");
    expect(r.out).toContain(`${path.join("skills", "good", "SKILL.md")}: valid (good)`);
    expect(r.out).toContain(`${path.join("skills", "good", "nested", "inner", "SKILL.md")}: valid (inner)`);
    expect(r.out).toMatch(/skills\/bad\/SKILL\.md:2:7 error name\.case/);
    expect(r.out).toContain("5 skills checked (rules: spec): 2 valid, 3 invalid");
    expect(r.err).toBe("");
    expect(omniforge("skill", "validate", "--json", "skills").out).toBe(omniforge("skill", "validate", "--json", "--recursive", "skills").out);
  });

  it("a skill folder is that one skill unless --recursive, and a folder with no skill in or below it lacks its SKILL.md", () => {
    expect(omniforge("skill", "validate", "skills/good").out).toContain("1 skill checked");
    expect(omniforge("skill", "validate", "--recursive", "skills/good").out).toContain("2 skills checked");
    fs.mkdirSync(path.join(tmp, "empty-folder/sub"), { recursive: true });
    const r = omniforge("skill", "validate", "empty-folder");
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^empty-folder: invalid\n  empty-folder:1:1 error file\.missing Missing required file SKILL\.md/);
  });

  it("exit 2 on usage errors: unknown flag, no path, missing path, bad --rules", () => {
    for (const args of [["--bogus", "skills/good"], [], ["nope"], ["--rules", "strict", "skills/good"]]) {
      const r = omniforge("skill", "validate", ...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toMatch(/omniforge skill validate: /);
    }
  });
});

describe("paths in reports", () => {
  const io = (cwd: string) => ({ cwd }) as CliIO;
  it("are relative below the current folder (a folder named ..hidden is below it) and absolute elsewhere", () => {
    expect(display("/home/ana/skills/a/SKILL.md", io("/home/ana"))).toBe("skills/a/SKILL.md");
    expect(display("/home/ana/skills/a", io("/home/ana/skills/a"))).toBe("/home/ana/skills/a");
    expect(display("/home/anabel/a/SKILL.md", io("/home/ana"))).toBe("/home/anabel/a/SKILL.md");
    expect(display("/other/a/SKILL.md", io("/home/ana"))).toBe("/other/a/SKILL.md");
    expect(display("/home/ana/..hidden/SKILL.md", io("/home/ana"))).toBe("..hidden/SKILL.md");
    expect(display("/home/ana/../bo/SKILL.md", io("/home/ana/x"))).toBe("/home/ana/../bo/SKILL.md");
    expect(display("/a/SKILL.md", io("/"))).toBe("a/SKILL.md");
  });
});

describe("omniforge skill read-properties", () => {
  it("prints skills-ref's JSON", () => {
    const r = omniforge("skill", "read-properties", "skills/good");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ name: "good", description: 'Use <b> & "q" when it\'s needed.' });
  });

  it("exit 1 with a message when the skill cannot be parsed, 2 without a path", () => {
    const r = omniforge("skill", "read-properties", "skills/broken");
    expect(r.code).toBe(1);
    // Named like every other command's message (it read "Error: ..."), with the command.
    expect(r.err).toMatch(/^omniforge skill read-properties: .*never closed/);
    expect(omniforge("skill", "read-properties").code).toBe(2);
  });
});

describe("linked folders", () => {
  it("--recursive says which linked folders it does not follow, and still checks the rest", () => {
    write("coll/own", "---\nname: own\ndescription: A skill of its own. Use when testing.\n---\nBody.\n");
    fs.symlinkSync(path.join(tmp, "skills", "good"), path.join(tmp, "coll", "linked"));
    fs.symlinkSync(path.join(tmp, "skills", "good", "SKILL.md"), path.join(tmp, "coll", "notes.md"));
    const r = omniforge("skill", "validate", "coll", "--recursive");
    expect(r.code).toBe(0);
    expect(r.out).toContain("1 skill checked");
    expect(r.err).toBe(`omniforge skill validate: not followed: ${path.join("coll", "linked")} is a symbolic link to a folder; validate the folder it points to by its own path\n`);
  });
});

describe("where --recursive stops", () => {
  it("a SKILL.md below the depth limit: the walk says it stopped there and where, not only that nothing was found", () => {
    const deep = Array.from({ length: 13 }, (_, i) => `d${i + 1}`).join("/");
    write(`deep/${deep}/s`, "---\nname: s\ndescription: Deep. Use when deep.\n---\nBody.\n");
    const r = omniforge("skill", "validate", "--recursive", "deep");
    expect(r.code).toBe(1);
    expect(r.err).toContain("omniforge skill validate: no SKILL.md found in or below deep within 12 folder levels\n");
    expect(r.err).toContain(`omniforge skill validate: not looked into: deep/${deep}, more than 12 folder levels below deep; validate a deeper folder by its own path\n`);
    expect(omniforge("skill", "validate", "--recursive", `deep/${deep.split("/").slice(0, 5).join("/")}`).code).toBe(0);
  });

  it("a FIFO in place of SKILL.md is reported (file.not-a-file) and counted, and nothing blocks on it", () => {
    write("withfifo/ok", "---\nname: ok\ndescription: Fine. Use when fine.\n---\nBody.\n");
    fs.mkdirSync(path.join(tmp, "withfifo/fifo"));
    execFileSync("mkfifo", [path.join(tmp, "withfifo/fifo/SKILL.md")]);
    const r = omniforge("skill", "validate", "--recursive", "withfifo");
    expect(r.code).toBe(1);
    expect(r.out).toContain("withfifo/fifo/SKILL.md:1:1 error file.not-a-file SKILL.md is not a regular file");
    expect(r.out).toContain("2 skills checked (rules: spec): 1 valid, 1 invalid");
  });
});

describe("text from the files on a terminal", () => {
  it("validate and list show control characters in names, folders and messages escaped, one line per report", () => {
    const home = path.join(tmp, "esc-home");
    const project = path.join(tmp, "esc-project");
    const folder = path.join(project, ".omniforge", "skills", "two\nlines");
    fs.mkdirSync(home, { recursive: true });
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, "SKILL.md"), '---\nname: "esc\\e[8mhidden\\e[0m"\ndescription: Shows an escape. Use when testing.\n---\nBody.\n');
    const v = omniforge("skill", "validate", folder);
    const l = omniforge("skill", "list", "--home", home, "--project", project);
    for (const out of [v.out, l.out]) {
      expect(out).not.toMatch(/[\u001b]/);
      expect(out).toContain("esc\\u001b[8mhidden\\u001b[0m");
      expect(out).toContain("two\\u000alines");
    }
    // validate: the verdict line and each diagnostic stay one line each.
    const report = v.out.split("\n\n")[0]!.split("\n");
    expect(report.length).toBeGreaterThan(1);
    for (const line of report) expect(line).toContain("two\\u000alines/SKILL.md");
  });
});

describe("omniforge skill to-prompt", () => {
  it("prints the <available_skills> block with escaped text and absolute locations", () => {
    const r = omniforge("skill", "to-prompt", "skills/good", "skills/bad");
    expect(r.code).toBe(0);
    expect(r.out).toContain("<description>\nUse &lt;b&gt; &amp; &quot;q&quot; when it&#x27;s needed.\n</description>");
    expect(r.out).toContain(`<location>\n${path.join(realTmp, "skills/good/SKILL.md")}\n</location>`);
    expect(r.out.startsWith("<available_skills>\n<skill>\n<name>\ngood\n</name>")).toBe(true);
    expect(r.out.trimEnd().endsWith("</skill>\n</available_skills>")).toBe(true);
  });

  it("fails (exit 1) when a skill cannot be loaded, and prints no partial block", () => {
    const r = omniforge("skill", "to-prompt", "skills/good", "skills/broken");
    expect(r.code).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toMatch(/^omniforge skill to-prompt: skills\/broken: /);
  });

  it("writes control characters of a description out as text: XML 1.0 cannot hold them, a terminal would obey them", () => {
    write("skills/escaper", '---\nname: escaper\ndescription: "Paints \\e[31mred\\e[0m and \\u202Eflips. Use it."\n---\nbody\n');
    const r = omniforge("skill", "to-prompt", "skills/escaper");
    expect(r.code).toBe(0);
    expect(r.out).toContain("<description>\nPaints \\u001b[31mred\\u001b[0m and \\u202eflips. Use it.\n</description>");
    expect(r.out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
  });
});
