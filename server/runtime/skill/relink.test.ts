import { describe, expect, it } from "vitest";
import { checkSkillSource } from "./check";
import { relinkSkillText } from "./relink";

const skill = (body: string, nl = "\n") => ["---", "name: guide", "description: Reads the guide. Use when asked.", "---", ...body.split("\n")].join(nl);

describe("relinkSkillText", () => {
  it("rewrites links and bare paths to a renamed file, keeping ./, #fragments and what is in code", () => {
    const body = [
      "See [the guide](references/guide.md) and [part two](./references/guide.md#part-two).",
      "Open references/guide.md, then run `scripts/build.sh`.",
      "Not this one: references/guide.md.bak nor [other](references/other.md).",
    ].join("\n");
    const r = relinkSkillText(skill(body), "references/guide.md", "references/howto.md");
    expect(r.count).toBe(3);
    expect(r.text).toBe(
      skill(
        [
          "See [the guide](references/howto.md) and [part two](./references/howto.md#part-two).",
          "Open references/howto.md, then run `scripts/build.sh`.",
          "Not this one: references/guide.md.bak nor [other](references/other.md).",
        ].join("\n"),
      ),
    );
  });

  it("a renamed folder moves every reference below it; the frontmatter is never touched", () => {
    const text = skill("Run scripts/a.py and [b](scripts/sub/b.sh).").replace("Use when asked.", "Use when asked about scripts/a.py.");
    const r = relinkSkillText(text, "scripts", "tools");
    expect(r.count).toBe(2);
    expect(r.text).toContain("description: Reads the guide. Use when asked about scripts/a.py.");
    expect(r.text).toContain("Run tools/a.py and [b](tools/sub/b.sh).");
  });

  it("keeps CRLF line endings and a BOM, and offsets stay right after them", () => {
    const text = "\uFEFF" + skill("One [a](references/a.md).\nTwo references/a.md here.", "\r\n");
    const r = relinkSkillText(text, "references/a.md", "references/b.md");
    expect(r.count).toBe(2);
    expect(r.text).toBe("\uFEFF" + skill("One [a](references/b.md).\nTwo references/b.md here.", "\r\n"));
  });

  it("a new name a link target cannot hold as it is is percent-encoded in links, left as it is inside <...>", () => {
    const r = relinkSkillText(skill("[a](references/a.md) and [b](<references/a.md>)"), "references/a.md", "references/my notes (v2).md");
    expect(r.text).toContain("[a](references/my%20notes%20%28v2%29.md) and [b](<references/my notes (v2).md>)");
  });

  it("after the rewrite the validator finds no missing reference to the old name", () => {
    const files = new Set(["references/howto.md"]);
    const before = skill("Read [the guide](references/guide.md) first.");
    const missing = (t: string) => checkSkillSource(t, { dir: "/skills/guide", fileExists: (p) => files.has(p) }).diagnostics.filter((d) => d.code === "body.missing-reference");
    expect(missing(before)).toHaveLength(1);
    expect(missing(relinkSkillText(before, "references/guide.md", "references/howto.md").text)).toHaveLength(0);
  });

  it("nothing to rewrite, or no frontmatter to find the body by: the text comes back as it was", () => {
    const text = skill("No references here.");
    expect(relinkSkillText(text, "references/a.md", "references/b.md")).toEqual({ text, count: 0 });
    expect(relinkSkillText("just text references/a.md", "references/a.md", "references/b.md").count).toBe(0);
  });
});
