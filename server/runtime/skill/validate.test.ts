// Frontmatter rules under both rule sets, the positions they report, and the lenient properties an agent loads.
import { describe, expect, it } from "vitest";
import { checkSkillSource, type RuleSet } from "./index";

function check(frontmatter: string, opts: { dir?: string; rules?: RuleSet; body?: string; fileExists?: (p: string) => boolean } = {}) {
  return checkSkillSource(`---\n${frontmatter}\n---\n${opts.body ?? "# Body\n"}`, {
    dir: `/skills/${opts.dir ?? "my-skill"}`,
    rules: opts.rules,
    fileExists: opts.fileExists,
  });
}
const BASE = "name: my-skill\ndescription: Does a thing. Use when asked.";
const codesOf = (c: ReturnType<typeof check>, severity?: string) =>
  c.diagnostics.filter((d) => !severity || d.severity === severity).map((d) => d.code);

describe("name", () => {
  it("every name it suggests is itself a valid name", () => {
    for (const bad of ["Good_One", "PDF Tools", "Über_Tool", "x__y", "API-Helper!"]) {
      const suggested = check(`name: ${bad}\ndescription: Does a thing. Use when asked.`).diagnostics.flatMap((d) => [...d.message.matchAll(/(?:use|try) "([^"]+)"/g)].map((m) => m[1]!));
      expect(suggested.length, bad).toBeGreaterThan(0);
      for (const name of suggested) expect(codesOf(check(`name: ${name}\ndescription: Does a thing. Use when asked.`, { dir: name }), "error"), `${bad} -> ${name}`).toEqual([]);
    }
  });

  it.each([
    ["PDF-Processing", "name.case"],
    ["-pdf", "name.hyphen-edge"],
    ["pdf-", "name.hyphen-edge"],
    ["pdf--processing", "name.hyphen-consecutive"],
    ["pdf_processing", "name.pattern"],
    ["pdf processing", "name.pattern"],
    ["a".repeat(65), "name.too-long"],
    ['""', "name.empty"],
  ])("%s -> %s", (name, code) => {
    const dir = name.startsWith('"') ? "x" : name;
    const c = check(`name: ${name}\ndescription: d`, { dir });
    expect(codesOf(c, "error")).toEqual([code]);
  });

  it("accepts 64 characters, digits, and lowercase non-ASCII letters", () => {
    for (const name of ["a".repeat(64), "pdf2text-v3", "мой-навык", "007"]) {
      expect(check(`name: '${name}'\ndescription: d`, { dir: name }).valid).toBe(true);
    }
  });

  it("compares the NFKC forms of name and folder", () => {
    const c = check("name: x\u00b2\ndescription: d", { dir: "x2" });
    expect(c.valid).toBe(true);
    expect(c.properties?.name).toBe("x2");
    expect(codesOf(c)).toEqual(["name.normalized"]);
  });

  it("points at the name value", () => {
    const c = check("description: d\nname:   Bad_Name", { dir: "Bad_Name" });
    expect(c.diagnostics.find((d) => d.code === "name.pattern")).toMatchObject({ line: 3, column: 9, endLine: 3, endColumn: 17 });
  });

  it("folder mismatch: error under spec, warning under omniforge, loads either way", () => {
    const spec = check(BASE, { dir: "other" });
    expect(codesOf(spec, "error")).toEqual(["name.directory-mismatch"]);
    expect(spec.loadable).toBe(true);
    const omni = check(BASE, { dir: "other", rules: "omniforge" });
    expect(omni.valid).toBe(true);
    expect(codesOf(omni, "warning")).toEqual(["name.directory-mismatch"]);
    expect(omni.properties?.name).toBe("my-skill");
  });

  it("missing name, with a hint when a capitalised key exists", () => {
    const c = check("Name: my-skill\ndescription: d");
    expect(codesOf(c, "error")).toEqual(["field.unknown", "name.missing"]);
    expect(c.diagnostics.find((d) => d.code === "name.missing")!.message).toContain('"Name"');
    expect(c.loadable).toBe(false);
  });
});

describe("description, compatibility, license, metadata", () => {
  it("description length counts characters before trimming; omniforge only warns", () => {
    const long = `name: my-skill\ndescription: '${"x".repeat(1020)}     '`;
    expect(codesOf(check(long), "error")).toEqual(["description.too-long"]);
    const omni = check(long, { rules: "omniforge" });
    expect(omni.valid).toBe(true);
    expect(omni.properties?.description).toBe("x".repeat(1020));
    expect(check(`name: my-skill\ndescription: '${"x".repeat(1024)}'`).valid).toBe(true);
  });

  it("empty and missing descriptions do not load", () => {
    expect(codesOf(check("name: my-skill\ndescription: '  '"))).toEqual(["description.empty"]);
    const missing = check("name: my-skill");
    expect(codesOf(missing)).toEqual(["description.missing"]);
    expect(missing.loadable).toBe(false);
  });

  it("compatibility: 1-500 characters, a string; given empty it is absent (skills-ref's reading)", () => {
    expect(codesOf(check(`${BASE}\ncompatibility: ${"c".repeat(501)}`))).toEqual(["compatibility.too-long"]);
    expect(codesOf(check(`${BASE}\ncompatibility: ''`))).toEqual([]);
    expect(check(`${BASE}\ncompatibility: ''`).properties?.compatibility).toBeUndefined();
    expect(codesOf(check(`${BASE}\ncompatibility:\n  - linux`))).toEqual(["compatibility.type"]);
    expect(check(`${BASE}\ncompatibility: ${"c".repeat(500)}`).valid).toBe(true);
  });

  it("license must be a string", () => {
    expect(codesOf(check(`${BASE}\nlicense: [MIT, GPL]`))).toEqual(["license.type"]);
  });

  it("metadata: string values only (nested: spec error, omniforge warning, left out of properties)", () => {
    const fm = `${BASE}\nmetadata:\n  version: "1.0"\n  author:\n    name: Ann`;
    const spec = check(fm);
    expect(spec.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([["metadata.value-type", 7, 5]]);
    const omni = check(fm, { rules: "omniforge" });
    expect(omni.valid).toBe(true);
    expect(omni.properties?.metadata).toEqual({ version: "1.0" });
    expect(codesOf(check(`${BASE}\nmetadata: just text`))).toEqual(["metadata.type"]);
  });

  it("scalars stay strings, as in the reference parser (no booleans, numbers or nulls)", () => {
    const c = check("name: true\ndescription: 1.10\nmetadata:\n  version: 1.0\n  flag: yes", { dir: "true" });
    expect(c.valid).toBe(true);
    expect(c.raw).toEqual({ name: "true", description: "1.10", metadata: { version: "1.0", flag: "yes" } });
  });
});

describe("allowed-tools", () => {
  it("a string is fine under both rule sets; a list only under omniforge", () => {
    expect(check(`${BASE}\nallowed-tools: Bash(git status:*) Read, Write`).properties?.allowedTools).toEqual([
      "Bash(git status:*)",
      "Read",
      "Write",
    ]);
    const list = `${BASE}\nallowed-tools:\n  - Read\n  - Bash(git:*)`;
    expect(codesOf(check(list), "error")).toEqual(["allowed-tools.type"]);
    const omni = check(list, { rules: "omniforge" });
    expect(omni.valid).toBe(true);
    expect(omni.properties?.allowedTools).toEqual(["Read", "Bash(git:*)"]);
  });

  it("an empty string is valid and counts as absent (no restriction, as an empty list)", () => {
    const c = check(`${BASE}\nallowed-tools: ''`);
    expect(c.valid).toBe(true);
    expect(c.properties?.allowedTools).toBeUndefined();
  });

  it("an unreadable value fails closed: an error, and no tool approved", () => {
    const c = check(`${BASE}\nallowed-tools:\n  Read: yes`, { rules: "omniforge" });
    expect(codesOf(c, "error")).toEqual(["allowed-tools.type"]);
    expect(c.properties?.allowedTools).toEqual([]);
  });

  it("warns on unbalanced parentheses", () => {
    expect(codesOf(check(`${BASE}\nallowed-tools: Bash(git:* Read`))).toEqual(["allowed-tools.syntax"]);
  });
});

describe("unknown, vendor and extension fields", () => {
  it("spec: every field outside the six is an error, one per key, sorted", () => {
    const c = check(`${BASE}\nzeta: 1\nauthor: me\ntags: x`);
    expect(c.diagnostics.map((d) => [d.code, d.line])).toEqual([
      ["field.unknown", 5],
      ["field.unknown", 6],
      ["field.unknown", 4],
    ]);
    expect(c.diagnostics[0]!.message).toContain("author");
    expect(c.loadable).toBe(true);
  });

  it("omniforge: vendor fields warn, unknown fields warn with a suggestion, extensions are accepted", () => {
    const c = check(`${BASE}\nargument-hint: "[file]"\ndescripton: typo\nallowed_tools: Read\ncontext: fork\npriority: 5`, { rules: "omniforge" });
    expect(c.valid).toBe(true);
    const byCode = c.diagnostics.map((d) => [d.code, d.severity]);
    expect(byCode).toEqual([
      ["field.unknown", "warning"],
      ["field.vendor", "warning"],
      ["field.unknown", "warning"],
    ]);
    expect(c.diagnostics[0]!.message).toContain('Did you mean "allowed-tools"?');
    expect(c.diagnostics[2]!.message).toContain('Did you mean "description"?');
    expect(c.properties).toMatchObject({ context: "fork", priority: 5 });
    expect(c.diagnostics[1]!.message).toBe('"argument-hint" is a Claude Code field; OmniForge keeps it but does not use it, and other spec tools reject it.');
    // A field several tools write says so, not "a various field".
    const author = check(`${BASE}\nauthor: Ana`, { rules: "omniforge" }).diagnostics.map((d) => d.message);
    expect(author).toEqual(['"author" is a field several tools write; OmniForge keeps it but does not use it, and other spec tools reject it.']);
  });

  it("omniforge extension fields are type-checked and extracted", () => {
    const fm = [
      BASE,
      "model: claude-sonnet",
      "context: fork",
      "agent: reviewer",
      "hooks:",
      "  pre: scripts/setup.sh",
      "  post: scripts/cleanup.sh",
      "priority: -2.5",
      "tags: [pdf, docs]",
      "scope:",
      "  agents: [support]",
      "  environments:",
      "    - prod",
    ].join("\n");
    const c = check(fm, { rules: "omniforge", fileExists: (p) => p === "scripts/setup.sh" });
    expect(c.diagnostics.map((d) => d.code)).toEqual(["hooks.missing-script"]);
    expect(c.properties).toEqual({
      name: "my-skill",
      description: "Does a thing. Use when asked.",
      model: "claude-sonnet",
      context: "fork",
      agent: "reviewer",
      hooks: { pre: "scripts/setup.sh", post: "scripts/cleanup.sh" },
      priority: -2.5,
      tags: ["pdf", "docs"],
      scope: { agents: ["support"], environments: ["prod"] },
    });
    // The same file under spec: every extension is an unknown field.
    expect(codesOf(check(fm), "error").every((code) => code === "field.unknown")).toBe(true);
  });

  it("rejects bad extension values", () => {
    const c = check(`${BASE}\ncontext: sideways\npriority: high\nhooks:\n  pre: ../../evil.sh\n  PreToolUse: x\ntags: {a: b}\nscope: everywhere`, {
      rules: "omniforge",
    });
    expect(c.diagnostics.map((d) => d.code)).toEqual(["context.value", "priority.type", "tags.type", "hooks.path", "hooks.unknown-key", "scope.type"]);
    expect(c.properties?.hooks).toBeUndefined(); // an escaping hook never reaches the runtime
  });
});

describe("reserved words in names (seed 003)", () => {
  it("are an error under the omniforge rules, naming the word and the rule, and valid under the spec's", () => {
    for (const [name, word] of [["claude-helper", "claude"], ["my-anthropic-kit", "anthropic"], ["gemini", "gemini"], ["openai-docs", "openai"], ["infer-tools", "infer"]] as const) {
      const ours = check(`name: ${name}\ndescription: Does a thing. Use when asked.`, { dir: name, rules: "omniforge" });
      expect(codesOf(ours, "error"), name).toEqual(["name.reserved"]);
      expect(ours.diagnostics[0]!.message).toContain(`reserved word "${word}"`);
      expect(ours.diagnostics[0]!.message).toContain("seed 003");
      expect(ours.diagnostics[0]).toMatchObject({ line: 2, column: 7 });
      // Still loads: anthropics/skills' own claude-api works as copied.
      expect(ours.properties?.name).toBe(name);
      expect(check(`name: ${name}\ndescription: Does a thing. Use when asked.`, { dir: name, rules: "spec" }).valid, name).toBe(true);
    }
    expect(codesOf(check(BASE, { rules: "omniforge" }), "error")).toEqual([]);
  });
});

describe("agent without context: fork (seed 000)", () => {
  it("is a warning under the omniforge rules, and none with context: fork", () => {
    const alone = check(`${BASE}\nagent: Explore`, { rules: "omniforge" });
    expect(alone.diagnostics.find((d) => d.code === "agent.without-fork")).toMatchObject({ severity: "warning", line: 4 });
    expect(alone.diagnostics.find((d) => d.code === "agent.without-fork")!.message).toContain("add context: fork");
    expect(codesOf(check(`${BASE}\ncontext: fork\nagent: Explore`, { rules: "omniforge" }))).not.toContain("agent.without-fork");
    expect(codesOf(check(`${BASE}\ncontext: inherit\nagent: Plan`, { rules: "omniforge" }))).toContain("agent.without-fork");
  });
});

describe("execution block (seed 000)", () => {
  it("is a known field: what the sandbox already gives passes, a wider ask is a warning that it is not granted, a bad value an error", () => {
    const ok = check(`${BASE}\nexecution:\n  sandbox: true\n  network: none\n  allowed-paths: [/scratch/out]`, { rules: "omniforge" });
    expect(codesOf(ok)).toEqual([]);
    const wide = check(`${BASE}\nexecution:\n  sandbox: false\n  allowed-paths: ["/project", "/tmp"]\n  network: restricted`, { rules: "omniforge" });
    expect(codesOf(wide)).toEqual(["execution.not-granted", "execution.not-granted", "execution.not-granted"]);
    expect(wide.diagnostics.map((d) => d.message).join("\n")).toMatch(/execution.allowed-paths \/project, \/tmp is not granted/);
    expect(codesOf(check(`${BASE}\nexecution: yes`, { rules: "omniforge" }), "error")).toEqual(["execution.type"]);
    expect(codesOf(check(`${BASE}\nexecution:\n  network: 5`, { rules: "omniforge" }), "error")).toEqual(["execution.type"]);
  });
});
