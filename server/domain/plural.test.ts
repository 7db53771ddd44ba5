import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { repoRoot, sourceFiles } from "../test-support/source-files";
import { count, plural } from "./plural";

describe("count", () => {
  it("uses the plural rules, not 'n > 1'", () => {
    expect(count(1, "error")).toBe("1 error");
    expect(count(0, "error")).toBe("0 errors");
    expect(count(2, "warning")).toBe("2 warnings");
    expect(count(1200, "event")).toBe("1,200 events");
    expect(count(3, "query", "queries")).toBe("3 queries");
  });

  it("prints a setting's value as typed when asked not to group", () => {
    expect(count(3650, "day", "days", { group: false })).toBe("3650 days");
    expect(count(1, "day", "days", { group: false })).toBe("1 day");
    expect(count(3650, "day")).toBe("3,650 days");
  });
});

describe("plural", () => {
  it("gives the word alone, for the verbs and pronouns around a count", () => {
    expect(plural(1, "is", "are")).toBe("is");
    expect(plural(0, "is", "are")).toBe("are");
    expect(plural(2, "it", "them")).toBe("them");
    expect(plural(3, "match", "matches")).toBe("matches");
  });

  it("picks the same form as the language's plural rules for whole numbers and fractions", () => {
    const rules = new Intl.PluralRules("en-US");
    for (const n of [-1000, -2, -1, 0, 1, 2, 3, 11, 21, 101, 1000, 1_000_000, 0.5, 1.5, -1.5, 2.25]) {
      expect(plural(n, "one", "many"), String(n)).toBe(rules.select(n) === "one" ? "one" : "many");
    }
  });
});

// The rule (#13): a count's words go through this module. A hand-written plural is a conditional on "is it 1" that
// picks between two bits of text (`n === 1 ? "" : "s"`, `? "is" : "are"`), or a "(s)" hedge in a message. Read
// from the syntax tree, so a `(s) =>` parameter or a call `f(s)` is not mistaken for one.
describe("plural wording in the code", () => {
  const isOne = (e: ts.Expression) => ts.isNumericLiteral(e) && e.text === "1";
  const isText = (e: ts.Expression) => ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e);
  const COMPARE = new Set([ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken, ts.SyntaxKind.GreaterThanToken, ts.SyntaxKind.LessThanEqualsToken]);
  const HEDGE = /[a-z]\((?:s|es)\)/i;

  /** Each hand-written plural in `code`, as "line: text". */
  function handWritten(code: string, file = "x.tsx"): string[] {
    const sf = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const found: string[] = [];
    const at = (n: ts.Node) => `${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}: ${n.getText().slice(0, 80)}`;
    const visit = (n: ts.Node) => {
      if (ts.isConditionalExpression(n) && isText(n.whenTrue) && isText(n.whenFalse)) {
        let c: ts.Expression = n.condition;
        while (ts.isParenthesizedExpression(c)) c = c.expression;
        if (ts.isBinaryExpression(c) && COMPARE.has(c.operatorToken.kind) && (isOne(c.left) || isOne(c.right))) found.push(at(n));
      }
      const text = ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) ? n.text : ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n) || ts.isJsxText(n) ? n.text : null;
      if (text !== null && HEDGE.test(text.replace(/http\(s\)/gi, ""))) found.push(at(n)); // "an http(s) address" is no count
      ts.forEachChild(n, visit);
    };
    visit(sf);
    return found;
  }

  it("recognises the hand-written forms and nothing else", () => {
    expect(handWritten('const a = `${n} skill${n === 1 ? "" : "s"}`;')).toHaveLength(1);
    expect(handWritten('const a = `closest ${r.length !== 1 ? "are" : "is"}`;')).toHaveLength(1);
    expect(handWritten('const a = `${e} error${(e > 1) ? "s" : ""}`;')).toHaveLength(1);
    expect(handWritten("const a = <p>{n} file{n === 1 ? '' : 's'}</p>;")).toHaveLength(1);
    expect(handWritten("const a = `removed ${n} folder(s)`; const b = <p>3 file(s)</p>;")).toHaveLength(2);
    expect(handWritten('const a = xs.map((s) => f(s)); const b = n === 1 ? w / 2 : 0; const c = i === 0 ? "admin" : "author";')).toEqual([]);
    expect(handWritten('const a = "--from must be an http(s) address";')).toEqual([]);
  });

  it("has none outside server/domain/plural.ts", () => {
    const files = ["app", "bin", "components", "db", "scripts", "server"].flatMap((d) => sourceFiles(d, { tests: false }));
    expect(files.length).toBeGreaterThan(100);
    const own = path.join("server", "domain", "plural.ts");
    const found = files.filter((f) => f !== own).flatMap((f) => handWritten(fs.readFileSync(path.join(repoRoot, f), "utf8"), f).map((hit) => `${f}:${hit}`));
    expect(found).toEqual([]);
  });
});
