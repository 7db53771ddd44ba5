// skills-ref output formats: read-properties JSON and the <available_skills> block.
import { describe, expect, it } from "vitest";
import { checkSkillSource, formatPropertiesJson, readProperties, toPrompt } from "./index";

const skill = (fm: string, dir = "/skills/my-skill") => checkSkillSource(`---\n${fm}\n---\nBody\n`, { dir });

describe("readProperties", () => {
  it("has skills-ref's keys and order, allowed-tools as one string, metadata only when non-empty", () => {
    const c = skill(
      "allowed-tools:\n  - Read\n  - Bash(git:*)\nmetadata:\n  author: me\ndescription: '  Does it.  '\nname: my-skill\nlicense: MIT\ncompatibility: Node 20\nextra: ignored",
    );
    const props = readProperties(c);
    expect(Object.keys(props)).toEqual(["name", "description", "license", "compatibility", "allowed-tools", "metadata"]);
    expect(props).toEqual({
      name: "my-skill",
      description: "Does it.",
      license: "MIT",
      compatibility: "Node 20",
      "allowed-tools": "Read Bash(git:*)",
      metadata: { author: "me" },
    });
    expect(Object.keys(readProperties(skill("name: my-skill\ndescription: d\nmetadata: {}")))).toEqual(["name", "description"]);
  });

  it("throws the first error when the skill cannot be loaded", () => {
    expect(() => readProperties(skill("name: my-skill"))).toThrow(/description/);
    expect(() => readProperties(checkSkillSource("no frontmatter", { dir: "/x" }))).toThrow(/frontmatter/);
  });

  it("prints JSON like Python's json.dumps(indent=2): non-ASCII escaped", () => {
    expect(formatPropertiesJson({ name: "мой", description: "café ✓" })).toBe(
      '{\n  "name": "\\u043c\\u043e\\u0439",\n  "description": "caf\\u00e9 \\u2713"\n}',
    );
  });
});

describe("toPrompt", () => {
  it("one element per line, HTML-escaped, absolute SKILL.md location, unloadable skills left out", () => {
    const a = skill(`name: my-skill\ndescription: 'Use <foo> & "bar" tags; it''s safe'`);
    const broken = skill("name: broken");
    expect(toPrompt([a, broken])).toBe(
      [
        "<available_skills>",
        "<skill>",
        "<name>",
        "my-skill",
        "</name>",
        "<description>",
        "Use &lt;foo&gt; &amp; &quot;bar&quot; tags; it&#x27;s safe",
        "</description>",
        "<location>",
        a.file,
        "</location>",
        "</skill>",
        "</available_skills>",
      ].join("\n"),
    );
    expect(a.file?.startsWith("/")).toBe(true);
  });

  it("an empty list is an empty block", () => {
    expect(toPrompt([])).toBe("<available_skills>\n</available_skills>");
  });
});
