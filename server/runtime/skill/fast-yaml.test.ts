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

interface RefSpans {
  key: number[];
  value: number[] | null;
  children?: Record<string, RefSpans>;
}

/** yaml's key and value ranges, and those of one nested mapping level: what positionsOf in parse.ts reads. */
function spans(map: YAMLMap, depth = 0): Record<string, RefSpans> {
  const out: Record<string, RefSpans> = {};
  for (const pair of map.items) {
    if (!isScalar(pair.key)) continue;
    const value = pair.value as { range?: number[] } | null;
    out[String(pair.key.value)] = {
      key: pair.key.range!.slice(0, 2),
      value: value?.range ? value.range.slice(0, 2) : null,
      ...(depth === 0 && isMap(pair.value) ? { children: spans(pair.value, 1) } : {}),
    };
  }
  return out;
}

function expectAgreement(text: string): boolean {
  const fast = parseSimpleFrontmatter(text);
  if (!fast) return false;
  const ref = reference(text);
  expect(ref, `yaml rejects what the fast path accepted:\n${text}`).not.toBeNull();
  expect(fast.raw, text).toEqual(ref!.raw);
  const refSpans = spans(ref!.map);
  for (const [key, pos] of fast.fields) {
    expect([pos.key.start, pos.key.end], `key span of ${key} in\n${text}`).toEqual(refSpans[key]!.key);
    const v = refSpans[key]!.value;
    // For `key:` with nothing after it yaml's empty scalar sits at the next line; both point at the key's line end.
    if (v && fast.raw[key] !== "") expect([pos.value?.start, pos.value?.end], `value span of ${key} in\n${text}`).toEqual(v);
    const children = refSpans[key]!.children;
    expect(pos.children ? Object.keys(children ?? {}) : undefined, `children of ${key} in\n${text}`).toEqual(children ? [...pos.children!.keys()] : undefined);
    for (const [child, childPos] of pos.children ?? []) {
      expect([childPos.key.start, childPos.key.end, childPos.value?.start, childPos.value?.end], `${key}.${child} in\n${text}`).toEqual([
        ...children![child]!.key,
        ...children![child]!.value!,
      ]);
    }
  }
  return true;
}

describe("parseSimpleFrontmatter", () => {
  it("agrees with yaml on generated edge cases, and falls back on the rest", () => {
    const values = [
      "plain", "with spaces  ", "C# code #tag", "a---b", "'single'", "'it''s'", '"double"', '"with \\"escape\\""', '"a" # c',
      "x: y", "trailing:", "", "  ", "- dash", "[flow]", "{a: b}", "&anchor x", "*alias", "|", ">-", "!tag x", "%x", "@x", "`x",
      "1.0", "true", "null", "~", "é ünïcödé 😀", "a\tb", "a #b", "a#b", "'unterminated", '"unterminated', "'a' trailing",
      // Unicode spaces are content to YAML (only space and tab separate): never trimmed as if they were blanks
      "nbsp\u00a0", '"q"\u00a0', "'q'\u2028", "ideographic\u3000", "\u00a0lead", "a\u2029", "thin\u2009 #c",
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

  it("reads nested metadata, lists of mappings and block scalars as real skills write them", () => {
    for (const text of [
      // K-Dense's metadata: a list of people under a nested key
      'name: n\nmetadata:\n  skill-author: A / B, LLC (@x)\n  skill-version: "1.0.0"\n  skill-contributors:\n    - name: A\n      org: B # c\n      role: Author\n    - name: C\n      org: D\nlicense: MIT\n',
      // awesome-copilot: a list under metadata, then a top-level key
      "metadata:\n  version: \"1.3\"\n  enhancements:\n    - Multi-language detection (25+ languages)\n    - CI/CD pipeline detection\nargument-hint: 'x'\n",
      // nested three levels, with a blank line and a comment between entries
      "metadata:\n  emoji: x\n  requires:\n    bins:\n      - uv\n\n    # env vars\n    env:\n      - KEY\n  primaryEnv: KEY\n",
      // anthropics' claude-api: a literal block scalar, stripped
      "name: claude-api\ndescription: |-\n  First line — with: colons, # hashes and 'quotes'\n    indented more\n\n  after a blank line\nlicense: x\n",
      "description: |\n  clipped\n\n\nname: n\n",
      "description: |\n\n  leading blank line\n",
      "description: >\n  folded\n  onto one line\nname: n\n",
      "description: >-\n  folded, stripped\n# comment\nname: n\n",
      "items:\n  -   a: b\n      c: d\n  - e\n",
      "m:\n  a:\n    b: c\n  d: e\n",
      // a comment indented deeper than a collection, after its last entry, is inside yaml's range of it
      "m:\n  a:\n    x: 1\n      # c\n\n      # d\n  y: 2\n",
      "m:\n  - a\n    # c\nz: 1\n",
    ]) {
      expect(expectAgreement(text), text).toBe(true);
    }
  });

  it("leaves other nested and block forms to yaml", () => {
    for (const text of [
      "m:\n    - a\n  b: c", // a sequence, then a key less indented than it
      "m:\n  a: b\n    c: d", // a continuation inside a nested mapping
      "m:\n  - a: b\n     c: d", // a compact mapping's key out of line
      "m:\n  - - a", // a sequence in a sequence
      "m:\n  -\n    a: b", // a dash alone
      "m:\n  a:\nb: c", // an empty nested value
      "m:\n  a: ''", // an empty quoted nested value
      "m:\n  a: x\n  a: y", // duplicate nested key
      "m:\n- a", // a sequence at the key's indentation
      "d: |+\n  keep\n", // keep chomping
      "d: |2\n    x\n", // an indentation indicator
      "d: | # c\n  x\n", // a comment after the header
      "d: |\nname: n\n", // an empty block scalar
      "d: |\n    a\n  b\n", // a line less indented than the first, not at the top level
      "d: |\n  a\n   \n  b\n", // a whitespace-only line
      "d: |\n  no line break at the end",
      "d: >\n  a\n\n  b\n", // folded with a blank line
      "d: >\n  a\n    b\n", // folded with a more-indented line
      "m:\n  d: |\n    x\n", // a nested block scalar
      // layouts where yaml's range of a collection takes in more than its lines and deeper comments
      "m:\n  - k: v\n      # c\n\n", // blank lines after such a comment, at the end
      "m:\n  n:\n    a:\n      k: v\n      # c\n  x: y\n", // such a comment after an entry that is a collection
    ]) {
      expect(parseSimpleFrontmatter(text), text).toBeNull();
    }
  });

  it("agrees with yaml on thousands of generated nested documents", () => {
    let seed = 20261126;
    const rnd = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
      return (seed >>> 8) % n; // the high bits: an LCG's low bits repeat with short periods
    };
    const pick = <T,>(xs: readonly T[]): T => xs[rnd(xs.length)]!;
    const scalars = ["x\u00a0", "two words", "'q ''x'''", '"dq"', "a # c", "url: no", "C#", "é 😀", "[x]", "-x", "a:b", "", "''", "1.0"];
    const keys = ["a", "b", "name", "k-1", "x.y"];
    const gen = (indent: number, depth: number): string[] => {
      const pad = " ".repeat(indent);
      const out: string[] = [];
      if (depth > 0 && depth < 4 && rnd(3) === 0) {
        for (let n = 1 + rnd(3); n > 0; n--) {
          if (rnd(3) === 0) {
            // a `- key: value` item: the mapping's later keys line up under its first
            const inner = gen(indent + 2, depth + 1).filter((l) => l.trim() !== "");
            if (inner.length && !inner[0]!.trimStart().startsWith("-")) {
              out.push(`${pad}- ${inner[0]!.trimStart()}`, ...inner.slice(1));
              continue;
            }
          }
          out.push(`${pad}- ${pick(scalars)}`);
        }
        return out;
      }
      for (let n = 1 + rnd(3); n > 0; n--) {
        const key = pick(keys);
        if (depth < 4 && rnd(3) === 0) out.push(`${pad}${key}:`, ...gen(indent + pick([1, 2, 2, 4]), depth + 1));
        else if (depth === 0 && rnd(4) === 0) {
          out.push(`${pad}${key}: ${pick(["|", "|-", ">", ">-", "|+"])}`);
          for (let l = 1 + rnd(3); l > 0; l--) out.push(pick(["  text: # x", "  more", "    deeper", "", "   ", "  trailing "]));
        } else out.push(`${pad}${key}: ${pick(scalars)}`);
        if (rnd(6) === 0) out.push(pick(["", "# c", `${pad}  # c`, `${pad} odd: 1`]));
      }
      return out;
    };
    let accepted = 0;
    for (let n = 0; n < 4000; n++) if (expectAgreement(gen(0, 0).join("\n") + "\n")) accepted++;
    expect(accepted).toBeGreaterThan(400); // the generator reaches the fast path, not only the fallback
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
