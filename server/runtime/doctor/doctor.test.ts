// The tools, references and description checks, and silencing, on real skill folders in a temp dir.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { atOrAbove, CHECKS, doctorCatalog, doctorSkill, unknownCodes } from "./index";

const base = fs.mkdtempSync(path.join(os.tmpdir(), "of-doctor-"));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));
let n = 0;

function skill(frontmatter: string, body: string, files: Record<string, string> = {}): string {
  const dir = path.join(base, `s${++n}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "SKILL.md"), `---\n${frontmatter.trim()}\n---\n${body}`);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

const GOOD = "description: Summarises the changes on a git branch for a pull request. Use when the user asks for a PR description.";
const of = (dir: string, prefix: string) => doctorSkill(dir).findings.filter((f) => f.code.startsWith(prefix));

describe("loading", () => {
  it("a skill no agent can load is skill.not-loadable (high), with the validator's first error; a loadable one is not", () => {
    const noFrontmatter = skill("name: x", "");
    fs.writeFileSync(path.join(noFrontmatter, "SKILL.md"), "# Just a heading\n\nNo frontmatter here.\n");
    const duplicate = skill("name: twice\nname: twice\ndescription: d", "body\n");
    const linked = skill("name: linked\n" + GOOD, "body\n");
    fs.rmSync(path.join(linked, "SKILL.md"));
    fs.symlinkSync("/etc/hostname", path.join(linked, "SKILL.md"));
    for (const dir of [noFrontmatter, duplicate, linked]) {
      const [f, ...rest] = of(dir, "skill.");
      expect([f?.code, f?.severity, f?.message.startsWith("SKILL.md does not load: "), rest]).toEqual(["skill.not-loadable", "high", true, []]);
      expect(atOrAbove(doctorSkill(dir).findings, "low").length).toBeGreaterThan(0);
    }
    expect(of(duplicate, "skill.")[0]!.message).toMatch(/\[yaml\.|\[frontmatter\./);
    expect(of(skill("name: fine\n" + GOOD, "Body.\n"), "skill.")).toEqual([]);
  });
});

describe("tools: allowed-tools against the body", () => {
  it("a command the patterns do not allow is tools.missing at its line; Claude Code and legacy forms are understood", () => {
    const dir = skill(
      `name: pr-notes\n${GOOD}\nallowed-tools: Bash(git log *) Bash(git diff:*) Read`,
      "# PR notes\n\n```bash\n# list what changed\ngit log --oneline main..HEAD\ngit diff --stat main\ngit push origin HEAD\n```\n",
    );
    const f = of(dir, "tools.");
    expect(f.map((x) => [x.code, x.line, x.snippet])).toEqual([["tools.missing", 12, "git push origin HEAD"]]);
    expect(f[0]!.severity).toBe("high");
    expect(f[0]!.fix).toContain("Bash(git push *)");
  });

  it("python3 scripts/x.py is allowed by Bash(python3 scripts/x.py:*) and by a run_script spelling; inline code counts", () => {
    const ok = skill(`name: report\n${GOOD}\nallowed-tools: Bash(scripts/report.py:*)`, "Run `python3 scripts/report.py --since 7d` to build the report.\n", { "scripts/report.py": "print('x')\n" });
    expect(of(ok, "tools.")).toEqual([]);
    const missing = skill(`name: report2\n${GOOD}\nallowed-tools: Read`, "Run `python3 scripts/report.py --since 7d` to build the report.\n", { "scripts/report.py": "print('x')\n" });
    expect(of(missing, "tools.").map((x) => x.code)).toEqual(["tools.missing"]);
  });

  it("writing files and fetching URLs need Write and WebFetch; no allowed-tools means no restriction and no finding", () => {
    const dir = skill(`name: notes\n${GOOD}\nallowed-tools: Read`, "Write the summary to a file named NOTES.md.\n\nFetch https://example.com/changelog first.\n");
    expect(of(dir, "tools.").map((x) => x.message)).toEqual([
      "the body asks the agent to write or edit files, which allowed-tools does not allow",
      "the body asks the agent to fetch a URL, which allowed-tools does not allow",
    ]);
    expect(of(skill(`name: free\n${GOOD}`, "```bash\ngit push\n```\nWrite the summary to a file.\n"), "tools.")).toEqual([]);
  });

  it("a write named by its tool (\"then use the Write tool to save it\") is a write, as the offline provider makes it one", () => {
    const dir = skill(`name: forecast\n${GOOD}\nallowed-tools: Read`, "Read the notes, then use the Write tool to save the forecast.\n");
    expect(of(dir, "tools.").map((x) => [x.message, x.line])).toEqual([["the body asks the agent to write or edit files, which allowed-tools does not allow", 6]]);
  });

  it("a tool granted that nothing uses is tools.unused (low); Bash used by a bundled script is used", () => {
    const dir = skill(`name: narrow\n${GOOD}\nallowed-tools: Bash(git log *) WebFetch Write`, "```bash\ngit log -5\n```\n");
    expect(of(dir, "tools.").map((x) => [x.code, x.severity, x.snippet, x.line])).toEqual([
      ["tools.unused", "low", "WebFetch", 4],
      ["tools.unused", "low", "Write", 4],
    ]);
    const withScript = skill(`name: scripted\n${GOOD}\nallowed-tools: Bash`, "See scripts/run.sh.\n", { "scripts/run.sh": "echo hi\n" });
    expect(of(withScript, "tools.")).toEqual([]);
  });
});

describe("refs", () => {
  it("missing files, ../ links, files nothing mentions; mentioned files and licences are fine", () => {
    const dir = skill(`name: refs\n${GOOD}`, "Read [the guide](references/guide.md) and run scripts/missing.py.\nAlso see [the other skill](../other/SKILL.md).\n", {
      "references/guide.md": "See also forms.md.\n",
      "references/forms.md": "x\n",
      "references/orphan.md": "x\n",
      "LICENSE.txt": "MIT\n",
    });
    const f = of(dir, "refs.");
    expect(f.map((x) => [x.code, x.file, x.line])).toEqual([
      ["refs.missing", "SKILL.md", 5],
      ["refs.outside", "SKILL.md", 6],
      ["refs.unreferenced", "references/orphan.md", 1],
    ]);
  });

  it("a reference that is a link leaving the skill is refs.outside, not refs.missing (real paths against the skill's real path)", () => {
    const dir = skill(`name: leaky\n${GOOD}`, "Read [the users](references/passwd.txt) and [the guide](docs/guide.md).\n", { "references/own.md": "x\n" });
    fs.symlinkSync("/etc/passwd", path.join(dir, "references/passwd.txt"));
    const elsewhere = fs.mkdtempSync(path.join(base, "elsewhere-"));
    fs.writeFileSync(path.join(elsewhere, "guide.md"), "x\n");
    fs.symlinkSync(elsewhere, path.join(dir, "docs"));
    const f = of(dir, "refs.").filter((x) => x.code !== "refs.unreferenced");
    expect(f.map((x) => [x.code, x.line, x.message.slice(0, x.message.indexOf(" is "))])).toEqual([
      ["refs.outside", 5, '"references/passwd.txt"'],
      ["refs.outside", 5, '"docs/guide.md"'],
    ]);
  });

  it("a body over 500 lines with no reference file is refs.long-body; with one linked it is not", () => {
    const long = Array.from({ length: 520 }, (_, i) => `Step ${i}.`).join("\n") + "\n";
    expect(of(skill(`name: long\n${GOOD}`, long), "refs.").map((x) => x.code)).toEqual(["refs.long-body"]);
    expect(of(skill(`name: long2\n${GOOD}`, "Details in [more](references/more.md).\n" + long, { "references/more.md": "x" }), "refs.")).toEqual([]);
  });
});

describe("description", () => {
  it("short, no when, first person, vendor words; a good description has none", () => {
    const f = of(skill("name: claude-helper\ndescription: I help with PDFs.", "x\n"), "description.");
    expect(f.map((x) => x.code).sort()).toEqual(["description.first-person", "description.no-when", "description.short", "description.vendor-word"]);
    expect(f.find((x) => x.code === "description.vendor-word")!.line).toBe(2);
    expect(of(skill(`name: pr-notes\n${GOOD}`, "x\n"), "description.")).toEqual([]);
    // "I/O" and "US" are not the first person
    expect(of(skill("name: io\ndescription: Measures disk I/O throughput per device. Use when the user asks why writes are slow.", "x\n"), "description.")).toEqual([]);
  });

  it("overlap: two skills competing for the same requests are one pair with shared words, and a finding on both", () => {
    const a = skill("name: pdf-forms\ndescription: Fill in PDF forms, read PDF form fields and flatten fillable PDF documents. Use when the user has a PDF form to complete.", "x\n");
    const b = skill("name: pdf-form-filler\ndescription: Fill PDF forms and fillable PDF fields from data, then flatten the PDF. Use when a PDF form must be completed.", "x\n");
    const c = skill("name: weather\ndescription: Fetches the weather forecast for a city. Use when the user asks about rain, wind or temperature.", "x\n");
    const r = doctorCatalog([a, b, c]);
    expect(r.overlaps.map((o) => [o.aName, o.bName].sort())).toEqual([["pdf-form-filler", "pdf-forms"]]);
    expect(r.overlaps[0]!.sharedWords).toEqual(expect.arrayContaining(["pdf", "forms"]));
    expect(r.overlaps[0]!.suggestion).toMatch(/what each does that the other does not/);
    const codesOf = (dir: string) => r.skills.find((s) => s.dir === dir)!.findings.map((f) => f.code);
    expect(codesOf(a)).toContain("description.overlap");
    expect(codesOf(b)).toContain("description.overlap");
    expect(codesOf(c)).not.toContain("description.overlap");
  });

  it("overlap from a trigger set: a should-trigger query that lands on another skill", () => {
    const a = skill("name: slides\ndescription: Builds presentation decks from an outline. Use when the user wants slides.", "x\n", {
      "evals/triggers.json": JSON.stringify([{ query: "turn my notes into a keynote presentation about quarterly sales charts", should_trigger: true }]),
    });
    const b = skill("name: charts\ndescription: Draws sales charts and quarterly presentation graphics from spreadsheets. Use when the user asks for a chart.", "x\n");
    const r = doctorCatalog([a, b]);
    expect(r.overlaps).toHaveLength(1);
    expect(r.overlaps[0]!.evidence.some((e) => e.from === "slides: evals/triggers.json")).toBe(true);
  });
});

describe("silencing", () => {
  it("metadata doctor-ignore and a policy list mark findings silenced (kept, not dropped); fail-on ignores them", () => {
    const dir = skill(`name: quiet\ndescription: Tiny.\nmetadata: { doctor-ignore: "description.short refs.*" }`, "See scripts/gone.py.\n");
    const r = doctorSkill(dir, { ignore: ["description.no-when"] });
    const by = Object.fromEntries(r.findings.map((f) => [f.code, f.silenced ?? "no"]));
    expect(by).toEqual({ "refs.missing": "skill", "description.short": "skill", "description.no-when": "policy" });
    expect(atOrAbove(r.findings, "low")).toEqual([]);
  });

  it("every code in the table has a severity, an explanation and a fix; typos in ignore lists are named", () => {
    for (const [code, doc] of Object.entries(CHECKS)) {
      expect(code).toMatch(/^(skill|tools|scripts|refs|description|priority)\.[a-z-]+$/);
      expect(doc.explanation.length).toBeGreaterThan(20);
      expect(doc.fix.length).toBeGreaterThan(10);
    }
    expect(unknownCodes(["tools.unused", "scripts.*", "tools.unsued", "nope.*"])).toEqual(["tools.unsued", "nope.*"]);
  });
});
