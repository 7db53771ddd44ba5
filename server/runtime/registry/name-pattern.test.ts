// Forbidden-name patterns match as JavaScript's RegExp would, but in time linear in the name, whatever the pattern.
import { describe, expect, it } from "vitest";
import { compileNamePattern, NAME_MATCH_LENGTH } from "./name-pattern";

const NAMES = ["crypto-x", "deploy-helper", "foo-x", "abc-12", "abc-1234", "my-ai-tool", "main", "CLAUDE-x", "claude", "abc", "a-c", "abbcd", "xx", "a{,3}", "", "1.2", "ababc", "]", "x_y_x", "GemINI"];
const PATTERNS = ["/^crypto-/", "/(foo|bar)-x$/", "/^[a-z]+-[0-9]{2,3}$/", "/\\bai\\b/", "/claude/i", "/^a.c$/", "/[^a-z]/", "/^(a|ab)(c|bcd)(d*)$/", "/x{2}/", "/a{,3}/", "/[]/", "/[^]/", "/^$/", "/\\d\\.\\d/", "/(?:ab)+c/", "/(?<two>ab)+c/", "/[\\]a]/", "/\\x61/", "/[\\w.-]+_x/", "/\\Bb/", "/gem{1,2}ini/iu", "/^(a+)+$/"];

describe("compileNamePattern", () => {
  it("matches every name as RegExp.test does", () => {
    for (const p of PATTERNS) {
      const [, body, flags] = /^\/(.*)\/([a-z]*)$/.exec(p)!;
      const re = new RegExp(body!, flags);
      const c = compileNamePattern(p);
      for (const n of NAMES) expect([p, n, c.match(n)]).toEqual([p, n, re.test(n)]);
    }
  });

  it("a word matches as a substring", () => {
    expect(compileNamePattern("claude").match("my-claude-helper")).toBe(true);
    expect(compileNamePattern("claude").match("my-helper")).toBe(false);
  });

  it("patterns that make RegExp backtrack for minutes answer at once, and only a name's first characters are read", () => {
    const name = `${"a".repeat(40)}-y`;
    const t = performance.now();
    for (const p of ["/^(a+)+$/", "/(a|a)*b/", "/(a|aa)+$/", "/\\w*\\w*\\w*\\w*\\w*\\w*\\w*x/", "/^(a?){40}a{40}$/"]) expect(compileNamePattern(p).match(name)).toBe(false);
    expect(compileNamePattern("/^(a|b)*$/").match("a".repeat(100_000))).toBe(true);
    expect(performance.now() - t).toBeLessThan(250);
    expect(compileNamePattern("/x$/").match(`${"a".repeat(NAME_MATCH_LENGTH)}x`)).toBe(false);
  });

  it.each([
    ["/(?=a)/", "lookaround"],
    ["/(?<!a)b/", "lookaround"],
    ["/(a)\\1/", "backreference"],
    ["/(?<n>a)\\k<n>/", "backreference"],
    ["/a{0,5000}/", "too large"],
    ["/(/", "not a valid regular expression"],
    ["/a/v", "v flag"],
  ])("refuses %s (%s)", (p, why) => {
    expect(() => compileNamePattern(p)).toThrow(why);
  });
});
