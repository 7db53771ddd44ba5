// The hand parser must agree with the yaml package (failsafe schema) on everything it accepts, values and
// positions alike, and hand everything else over. Checked on every real and conformance frontmatter plus
// a generated corpus of edge cases.
import fs from "node:fs";
import path from "node:path";
import { isMap, isScalar, parseDocument, type YAMLMap } from "yaml";
import { describe, expect, it } from "vitest";
import { parseSimpleFrontmatter } from "./fast-yaml";
import { findSkillDirs } from "./discover";
import { itNeeding, sharedDir, sharedFixture } from "../../test-support/needs";

const shared = sharedDir;

function reference(text: string) {
  const doc = parseDocument(text, { schema: "failsafe", prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length || !isMap(doc.contents)) return null;
  return { raw: doc.toJS({ maxAliasCount: 50 }) as Record<string, unknown>, map: doc.contents };
}

function spans(map: YAMLMap) {
  const out: Record<string, unknown> = {};
  for (const pair of map.items) {
    if (!isScalar(pair.key)) continue;
    const value = pair.value as { range?: number[] } | null;
    out[String(pair.key.value)] = { key: pair.key.range!.slice(0, 2), value: value?.range ? value.range.slice(0, 2) : null };
  }
  return out;
}

function expectAgreement(text: string): boolean {
  const fast = parseSimpleFrontmatter(text);
  if (!fast) return false;
  const ref = reference(text);
  expect(ref, `yaml rejects what the fast path accepted:\n${text}`).not.toBeNull();
  expect(fast.raw).toEqual(ref!.raw);
  const refSpans = spans(ref!.map) as Record<string, { key: number[]; value: number[] | null }>;
  for (const [key, pos] of fast.fields) {
    expect([pos.key.start, pos.key.end], `key span of ${key}`).toEqual(refSpans[key]!.key);
    const v = refSpans[key]!.value;
    // For `key:` with nothing after it yaml's empty scalar sits at the next line; both point at the key's line end.
    if (v && fast.raw[key] !== "") expect(pos.value?.start, `value start of ${key}`).toBe(v[0]);
  }
  return true;
}

describe("parseSimpleFrontmatter", () => {
  it("agrees with yaml on generated edge cases, and falls back on the rest", () => {
    const values = [
      "plain", "with spaces  ", "C# code #tag", "a---b", "'single'", "'it''s'", '"double"', '"with \\"escape\\""', '"a" # c',
      "x: y", "trailing:", "", "  ", "- dash", "[flow]", "{a: b}", "&anchor x", "*alias", "|", ">-", "!tag x", "%x", "@x", "`x",
      "1.0", "true", "null", "~", "é ünïcödé 😀", "a\tb", "a #b", "a#b", "'unterminated", '"unterminated', "'a' trailing",
    ];
    let accepted = 0;
    for (const v of values) {
      for (const layout of [
        (x: string) => `name: ${x}\ndescription: d`,
        (x: string) => `description: d\nmetadata:\n  key: ${x}\n  other: o`,
        (x: string) => `tags:\n  - ${x}\n  - b`,
        (x: string) => `# comment\nname: n   # c\n\nlist:\n  - ${x}`,
        (x: string) => `description: starts here\n  ${x}\n  and ends here\nname: n`,
        (x: string) => `description: ${x}\n    continued once\n\nname: n`,
      ]) {
        if (expectAgreement(layout(v))) accepted++;
      }
    }
    expect(accepted).toBeGreaterThan(40);
  });

  it("reads one-line flow lists of plain words itself, with yaml's values and spans", () => {
    for (const text of [
      "name: n\ntags: [bench, group-1]\npriority: 2",
      "tags: [ a b ,c ]  # comment\nname: n",
      "tags: []\nname: n",
      "tags: [ ]",
      "allowed-tools: [Read, Write, Bash(git)]",
      "tags: [a b  c, 1.0, true, x/y.z, é, 日本]",
    ]) {
      expect(expectAgreement(text), text).toBe(true);
      const fast = parseSimpleFrontmatter(text)!;
      const ref = reference(text)!;
      for (const pair of ref.map.items) {
        const value = pair.value as { range: number[] };
        const pos = fast.fields.get(String((pair.key as { value: unknown }).value))!;
        expect([pos.value!.start, pos.value!.end], text).toEqual(value.range.slice(0, 2));
      }
    }
  });

  it("leaves every other flow list to yaml", () => {
    for (const text of [
      "tags: [a, , b]", // empty item: a yaml error
      "tags: [a, b,]", // trailing comma
      "tags: [a]x",
      "tags: [a]]",
      "tags: [a]\n  b", // a continuation line after a flow list is yaml's to judge
      "tags: [a,\n  b]", // multi-line
      "tags: ['a', \"b\"]",
      "tags: [a: b]",
      "tags: [a #b]",
      "tags: [[a], b]",
      "tags: [{a: b}]",
      "tags: [-a]",
      "tags: [*x]",
      "metadata:\n  k: [a]", // nested flow list
      "tags:\n  - [a]",
    ]) {
      expect(parseSimpleFrontmatter(text), text).toBeNull();
    }
  });

  it("falls back on structures outside the subset", () => {
    for (const text of [
      "name: a\nname: b", // duplicate: yaml reports it
      "name: a\n\n  continued", // a blank line inside a plain scalar folds to a newline
      "name: 'a'\n  continued", // multi-line quoted scalar
      "name: a\n  # comment\n  continued",
      "metadata:\n  a:\n    b: c", // deeper nesting
      "metadata:\n  a: b\n   c: d", // uneven indentation
      "list:\n- a", // sequence at the key's indentation
      '"name": x', // quoted key
      "name: a\n...", // document end marker
      "__proto__: x",
      "",
      "# only a comment",
    ]) {
      expect(parseSimpleFrontmatter(text), text).toBeNull();
    }
  });

  const dirs = [
    ...findSkillDirs(path.join(shared, "fixtures/real-skills")),
    ...findSkillDirs(path.join(shared, "fixtures/conformance/cases")),
  ];
  itNeeding([sharedFixture("fixtures/real-skills"), sharedFixture("fixtures/conformance/cases")], "agrees with yaml on every shared fixture frontmatter it accepts", () => {
    let accepted = 0;
    for (const dir of dirs) {
      const file = fs.existsSync(path.join(dir, "SKILL.md")) ? path.join(dir, "SKILL.md") : path.join(dir, "skill.md");
      const text = fs.readFileSync(file, "utf8").replace(/\r\n/g, "\n");
      const m = /^---\n([\s\S]*?)^---[ \t]*$/m.exec(text);
      if (m && expectAgreement(m[1]!)) accepted++;
    }
    expect(accepted).toBeGreaterThan(dirs.length / 2);
  });
});
