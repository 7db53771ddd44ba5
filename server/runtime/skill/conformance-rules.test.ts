// Our own conformance cases, one group per rule the shared cases leave open. Where the spec is explicit we follow
// it (a name with whitespace around it is invalid); where it is silent we read SKILL.md as skills-ref does:
// every newline convention, its closing delimiter (the first --- after the opening line), and an optional
// field given empty counted as absent. Each case is a real folder on disk, checked under the spec rules.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkSkillDir, readProperties, toPrompt } from "./index";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "of-conformance-rules-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

let n = 0;
/** A skill folder named `dirName` holding SKILL.md with exactly these bytes. */
function folder(dirName: string, text: string): string {
  const dir = path.join(root, String(n++), dirName);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "SKILL.md"), Buffer.from(text, "utf8"));
  return dir;
}

interface Case {
  id: string;
  text: string;
  expected: "valid" | "invalid";
  dirName?: string;
}

function verdictOf(c: Case) {
  const check = checkSkillDir(folder(c.dirName ?? "demo", c.text), { rules: "spec" });
  return { check, verdict: check.valid ? "valid" : "invalid", errors: check.diagnostics.filter((d) => d.severity === "error").map((d) => d.code) };
}

const lines = (eol: string, ...ls: string[]) => ls.join(eol);
const minimal = ["---", "name: demo", "description: Says hello. Use when greeting.", "---", "# Demo", "", "Say hello."];

describe("newline conventions: LF, CRLF and a bare CR are all line ends (skills-ref reads in text mode)", () => {
  const cases: Case[] = [
    { id: "nl-lf", text: lines("\n", ...minimal) + "\n", expected: "valid" },
    { id: "nl-crlf", text: lines("\r\n", ...minimal) + "\r\n", expected: "valid" },
    { id: "nl-cr", text: lines("\r", ...minimal) + "\r", expected: "valid" },
    { id: "nl-cr-no-final", text: lines("\r", ...minimal), expected: "valid" },
    { id: "nl-mixed", text: "---\r\nname: demo\rdescription: Says hello.\n---\r# Demo\r\n", expected: "valid" },
    { id: "nl-cr-block-scalar", text: lines("\r", "---", "name: demo", "description: |", "  Line one.", "  Line two.", "---", "Body") + "\r", expected: "valid" },
    { id: "nl-cr-bad-name", text: lines("\r", "---", "name: Demo", "description: d", "---") + "\r", expected: "invalid" },
    { id: "nl-cr-unclosed", text: lines("\r", "---", "name: demo", "description: d", "body") + "\r", expected: "invalid" },
  ];
  it.each(cases.map((c) => [c.id, c] as const))("%s", (_id, c) => {
    const { verdict, errors, check } = verdictOf(c);
    expect({ verdict, errors }).toMatchObject({ verdict: c.expected });
    if (c.expected === "valid") expect(check.properties?.name).toBe("demo");
  });

  it("a bare-CR file has the same lines, description and body as its LF twin", () => {
    const lf = verdictOf({ id: "lf", text: lines("\n", "---", "name: demo", "description: |", "  One.", "  Two.", "---", "A", "B") + "\n", expected: "valid" }).check;
    const cr = verdictOf({ id: "cr", text: lines("\r", "---", "name: demo", "description: |", "  One.", "  Two.", "---", "A", "B") + "\r", expected: "valid" }).check;
    expect(cr.properties?.description).toBe("One.\nTwo.");
    expect(cr.properties).toEqual(lf.properties);
    expect(cr.body).toBe(lf.body);
    expect(cr.bodyStartLine).toBe(lf.bodyStartLine);
  });

  it("diagnostics on a bare-CR file point at the line a CR-aware editor shows", () => {
    const { check } = verdictOf({ id: "cr-pos", text: "---\rname: demo\rdescription: d\rcolour: red\r---\r", expected: "invalid" });
    const unknown = check.diagnostics.find((d) => d.code === "field.unknown");
    expect(unknown?.line).toBe(4);
    expect(unknown?.column).toBe(1);
  });
});

describe("opening delimiter: --- on its own line (the spec says so; skills-ref only checks the first three bytes)", () => {
  const rest = "name: demo\ndescription: Says hello.\n---\nBody\n";
  const cases: Case[] = [
    { id: "open-plain", text: `---\n${rest}`, expected: "valid" },
    { id: "open-trailing-spaces", text: `---   \n${rest}`, expected: "valid" },
    { id: "open-trailing-tab-crlf", text: `---\t\r\n${rest.replaceAll("\n", "\r\n")}`, expected: "valid" },
    { id: "open-trailing-comment", text: `--- # metadata\n${rest}`, expected: "invalid" },
    { id: "open-key-on-same-line", text: `---name: demo\ndescription: Says hello.\n---\n`, expected: "invalid" },
    { id: "open-four-dashes", text: `----\n${rest}`, expected: "invalid" },
    // skills-ref reads with Python's default UTF-8, which keeps a byte-order mark: the file does not start with ---.
    { id: "open-after-bom", text: `\ufeff---\n${rest}`, expected: "invalid" },
  ];
  it.each(cases.map((c) => [c.id, c] as const))("%s", (_id, c) => {
    const { verdict, errors } = verdictOf(c);
    expect({ verdict, errors }).toMatchObject({ verdict: c.expected });
  });
});

describe("closing delimiter: the first --- after the opening line ends the frontmatter", () => {
  const fm = "---\nname: demo\ndescription: Says hello.\n";
  const cases: Case[] = [
    { id: "close-plain", text: `${fm}---\nBody\n`, expected: "valid" },
    { id: "close-trailing-spaces", text: `${fm}---   \nBody\n`, expected: "valid" },
    { id: "close-trailing-tab", text: `${fm}---\t\nBody\n`, expected: "valid" },
    { id: "close-four-dashes", text: `${fm}----\nBody\n`, expected: "valid" },
    { id: "close-with-text", text: `${fm}--- end of metadata\nBody\n`, expected: "valid" },
    { id: "close-indented", text: `${fm}  ---\nBody\n`, expected: "valid" },
    { id: "close-at-eof", text: `${fm}---`, expected: "valid" },
    { id: "close-dots-only", text: `${fm}...\nBody\n`, expected: "invalid" },
    { id: "close-dots-then-dashes", text: `${fm}...\n---\nBody\n`, expected: "valid" },
    { id: "close-inside-quoted-value", text: '---\nname: demo\ndescription: "Before --- after"\n---\nBody\n', expected: "invalid" },
    { id: "close-inside-plain-value", text: "---\nname: demo\ndescription: Before --- after\n---\nBody\n", expected: "valid" },
    { id: "close-cuts-off-description", text: "---\nname: demo\n--- description: d\n---\n", expected: "invalid" },
    { id: "close-underscores-not-dashes", text: `${fm}___\nBody\n`, expected: "invalid" },
  ];
  it.each(cases.map((c) => [c.id, c] as const))("%s", (_id, c) => {
    const { verdict, errors } = verdictOf(c);
    expect({ verdict, errors }).toMatchObject({ verdict: c.expected });
  });

  it("a delimiter that is not a line of its own loads, with a warning saying where the frontmatter ended", () => {
    const { check } = verdictOf({ id: "w", text: "---\nname: demo\ndescription: Before --- after\n---\nBody\n", expected: "valid" });
    expect(check.properties?.description).toBe("Before");
    const w = check.diagnostics.find((d) => d.code === "frontmatter.inline-close");
    expect(w).toMatchObject({ severity: "warning", line: 3, column: 21 });
    expect(w?.message).toMatch(/line 3, column 21/);
    // What followed the cut is body, as skills-ref reads it.
    expect(check.body).toContain("after");
  });

  it("a clean closing line gives no warning and the body starts on the next line", () => {
    const { check } = verdictOf({ id: "clean", text: "---\nname: demo\ndescription: d\n---  \nFirst body line\n", expected: "valid" });
    expect(check.diagnostics.map((d) => d.code)).not.toContain("frontmatter.inline-close");
    expect(check.bodyStartLine).toBe(5);
    expect(check.body).toBe("First body line\n");
  });
});

describe("an optional field given with an empty value is absent", () => {
  const base = "---\nname: demo\ndescription: Says hello.\n";
  const cases: Case[] = [
    { id: "empty-license", text: `${base}license:\n---\n`, expected: "valid" },
    { id: "empty-license-quoted", text: `${base}license: ""\n---\n`, expected: "valid" },
    { id: "empty-compatibility", text: `${base}compatibility:\n---\n`, expected: "valid" },
    { id: "empty-compatibility-single-quoted", text: `${base}compatibility: ''\n---\n`, expected: "valid" },
    { id: "empty-metadata", text: `${base}metadata:\n---\n`, expected: "valid" },
    { id: "empty-allowed-tools", text: `${base}allowed-tools:\n---\n`, expected: "valid" },
    { id: "all-optional-empty", text: `${base}license:\ncompatibility:\nmetadata:\nallowed-tools:\n---\n`, expected: "valid" },
    // Empty is not the same as blank or ill-typed, and required fields are never optional.
    { id: "compatibility-spaces", text: `${base}compatibility: "   "\n---\n`, expected: "valid" },
    { id: "metadata-list", text: `${base}metadata: []\n---\n`, expected: "invalid" },
    { id: "empty-unknown-field", text: `${base}version:\n---\n`, expected: "invalid" },
    { id: "empty-description", text: "---\nname: demo\ndescription:\n---\n", expected: "invalid" },
  ];
  it.each(cases.map((c) => [c.id, c] as const))("%s", (_id, c) => {
    const { verdict, errors } = verdictOf(c);
    expect({ verdict, errors }).toMatchObject({ verdict: c.expected });
  });

  it("read-properties leaves the empty fields out, as skills-ref does", () => {
    const { check } = verdictOf({ id: "props", text: `${base}license:\ncompatibility: ""\nallowed-tools:\nmetadata:\n---\n`, expected: "valid" });
    expect(readProperties(check)).toEqual({ name: "demo", description: "Says hello." });
    expect(check.properties).toEqual({ name: "demo", description: "Says hello." });
  });
});

describe("a name with whitespace around it is not a valid name (the spec is explicit; skills-ref strips it)", () => {
  const desc = "description: Says hello.\n---\n";
  const cases: Case[] = [
    { id: "name-quoted-spaces", text: `---\nname: " demo "\n${desc}`, expected: "invalid" },
    { id: "name-quoted-leading-space", text: `---\nname: " demo"\n${desc}`, expected: "invalid" },
    { id: "name-single-quoted-trailing", text: `---\nname: 'demo '\n${desc}`, expected: "invalid" },
    { id: "name-tab", text: `---\nname: "demo\\t"\n${desc}`, expected: "invalid" },
    { id: "name-block-scalar-newline", text: `---\nname: |\n  demo\n${desc}`, expected: "invalid" },
    // YAML trims only spaces and tabs: a no-break or ideographic space after a plain name is part of it.
    { id: "name-plain-trailing-nbsp", text: `---\nname: demo\u00a0\n${desc}`, expected: "invalid" },
    { id: "name-plain-trailing-ideographic-space", text: `---\nname: demo\u3000\n${desc}`, expected: "invalid" },
    // YAML itself trims a plain scalar, and a stripped block scalar has no newline: these are the name "demo".
    { id: "name-plain-extra-spaces", text: `---\nname:    demo   \n${desc}`, expected: "valid" },
    { id: "name-block-strip", text: `---\nname: |-\n  demo\n${desc}`, expected: "valid" },
  ];
  it.each(cases.map((c) => [c.id, c] as const))("%s", (_id, c) => {
    const { verdict, errors } = verdictOf(c);
    expect({ verdict, errors }).toMatchObject({ verdict: c.expected });
    if (c.expected === "invalid") expect(errors).toContain("name.whitespace");
  });

  it("still loads under the trimmed name (an agent can use it; the validator says what to fix)", () => {
    const { check } = verdictOf({ id: "load", text: `---\nname: " demo "\n${desc}`, expected: "invalid" });
    expect(check.loadable).toBe(true);
    expect(check.properties?.name).toBe("demo");
    expect(check.diagnostics.find((d) => d.code === "name.whitespace")?.message).toContain('"demo"');
  });
});

describe("to-prompt prints the name as written; matching keeps the normalised form", () => {
  it("a decomposed name is printed decomposed, loaded NFKC", () => {
    const written = "cafe\u0301"; // e + combining acute, as typed on some keyboards
    const { check } = verdictOf({ id: "nfd", dirName: "caf\u00e9", text: `---\nname: ${written}\ndescription: Coffee.\n---\n`, expected: "valid" });
    expect(check.properties?.name).toBe("caf\u00e9");
    const block = toPrompt([check]);
    expect(block).toContain(`<name>\n${written}\n</name>`);
    expect(block).not.toContain("<name>\ncaf\u00e9\n</name>");
  });

  it("a fullwidth/superscript name is printed as written, with surrounding whitespace stripped", () => {
    const { check } = verdictOf({ id: "sup", dirName: "x2", text: "---\nname: ' x\u00b2 '\ndescription: Squares.\n---\n", expected: "invalid" });
    expect(check.properties?.name).toBe("x2");
    expect(toPrompt([check])).toContain("<name>\nx\u00b2\n</name>");
  });
});
