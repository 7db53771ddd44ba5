// Body checks: length, and file references that leave the skill folder or point at nothing.
import { describe, expect, it } from "vitest";
import { checkSkillSource, type RuleSet } from "./index";

const FM = "---\nname: my-skill\ndescription: d\n---\n";
const check = (body: string, rules: RuleSet = "spec", files?: string[]) =>
  checkSkillSource(FM + body, { dir: "/skills/my-skill", rules, fileExists: files ? (p) => files.includes(p) : undefined });
const refs = (c: ReturnType<typeof check>) =>
  c.diagnostics.filter((d) => d.code.startsWith("body.")).map((d) => [d.code, d.line, d.column, d.severity]);

describe("body length", () => {
  it("warns past 500 lines (the spec's recommendation), pointing at line 501 of the body", () => {
    const body = Array.from({ length: 501 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
    const c = check(body);
    expect(c.valid).toBe(true);
    expect(refs(c)).toEqual([["body.too-long", 5 + 500, 1, "warning"]]);
    expect(refs(check(Array.from({ length: 500 }, () => "x").join("\n") + "\n"))).toEqual([]);
  });

  it("accepts an empty body", () => {
    expect(check("").valid).toBe(true);
  });
});

describe("file references", () => {
  it("path escapes: warning under spec, error under omniforge, at the exact column", () => {
    const body = "See [secrets](../../etc/passwd) and [abs](/etc/shadow).\nRun scripts/../../x.sh or file:///etc/hosts and [win](..\\..\\w.ini)\n";
    const spec = check(body);
    expect(spec.valid).toBe(true);
    expect(refs(spec)).toEqual([
      ["body.path-escape", 5, 15, "warning"],
      ["body.path-escape", 5, 43, "warning"],
      ["body.path-escape", 6, 5, "warning"],
      ["body.path-escape", 6, 27, "warning"],
      ["body.path-escape", 6, 55, "warning"],
    ]);
    const omni = check(body, "omniforge");
    expect(omni.valid).toBe(false);
    expect(omni.loadable).toBe(true);
    expect(refs(omni).every((r) => r[3] === "error")).toBe(true);
  });

  it("ignores URLs, anchors, mail links and paths that stay inside", () => {
    const body = "[a](https://x.org/a) [b](#usage) [c](mailto:a@b.c) [d](scripts/../references/r.md) https://x.org/scripts/../../y\n";
    expect(refs(check(body, "omniforge", ["references/r.md"]))).toEqual([]);
  });

  it("warns once per missing file (first mention), and only when the folder is known", () => {
    const body = "Run `python scripts/run.py` then `python scripts/run.py` and read [guide](references/guide.md#part).\n";
    expect(refs(check(body, "spec", ["references/guide.md"]))).toEqual([["body.missing-reference", 5, 13, "warning"]]);
    expect(refs(check(body))).toEqual([]); // no fileExists: nothing to compare against
  });

  it("reads script paths in code blocks, but links in code blocks are not links", () => {
    const body = "```bash\npython scripts/a.py\necho [x](references/nope.md)\n```\n[y](references/b.md)\n";
    expect(refs(check(body, "spec", ["references/b.md"]))).toEqual([["body.missing-reference", 6, 8, "warning"]]);
  });

  it("a fence starts only at the start of a line: a Unicode line separator is not one (CommonMark ends lines at LF and CR)", () => {
    const body = "Text\u2028```\n[y](references/b.md)\n";
    expect(refs(check(body, "spec", []))).toEqual([["body.missing-reference", 6, 5, "warning"]]);
  });

  it("skips globs and placeholders", () => {
    expect(refs(check("Put files in assets/<name>.png or scripts/*.py or references/.\n", "spec", []))).toEqual([
      ["body.missing-reference", 5, 51, "warning"],
    ]);
  });

  it("reads a path that ends the file, without a final newline", () => {
    expect(refs(check("Run scripts/run.py", "spec", ["scripts/run.py"]))).toEqual([]);
    expect(refs(check("Run scripts/run.py", "spec", ["scripts/run.p"]))).toEqual([["body.missing-reference", 5, 5, "warning"]]);
    expect(refs(check("[a](references/a.md", "spec", ["references/a.md"]))).toEqual([]);
  });

  it("decodes %20 and strips trailing punctuation", () => {
    expect(refs(check("See [a](references/my%20file.md) and references/x.md.\n", "spec", ["references/my file.md", "references/x.md"]))).toEqual([]);
  });
});
