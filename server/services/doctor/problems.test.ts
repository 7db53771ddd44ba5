// The editor's one list of problems through skill.check, as the console calls it: a real SQLite file and real
// skill folders. The validator's diagnostics and the doctor's findings arrive together, with one severity scale.
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { skillMd, writeSkillOnDisk } from "../skills/test-support/skills";
import { useSkillsTestHome } from "../../test-support/test-home";
import { callerFor } from "../../test-support/caller";

const h = useSkillsTestHome();
const ref = { layer: "project" as const, skill: "notes" };
const saved = skillMd("notes", "Writes release notes from merged changes. Use when a release is cut.", "allowed-tools: Read\n").replace("Body of notes.", "Fetch the changes:\n\n```bash\ncurl -s https://example.com/changes.txt\n```");
beforeEach(() => {
  writeSkillOnDisk(path.join(h.dataHome.projectRoot, ".omniforge", "skills", "notes"), { "SKILL.md": saved });
});
const author = () => callerFor(h, { id: "author-1", email: "author-1@x.io", name: "", role: "author" });

describe("skill.check's problems", () => {
  it("a doctor finding the format accepts is an error in the list, with its file, line and fix", async () => {
    const r = await author().skill.check({ ref, text: saved });
    expect(r.diagnostics).toEqual([]);
    expect(r.problems[0]).toEqual(expect.objectContaining({ source: "doctor", severity: "error", code: "tools.missing", file: "SKILL.md", line: 12, fix: expect.any(String) }));
    // The doctor's low findings are the validator's info, as the editor underlines them.
    expect(r.problems.find((p) => p.code === "tools.unused")).toMatchObject({ severity: "info" });
  });

  it("format problems of the typed text come first among equals, worst first overall", async () => {
    const r = await author().skill.check({ ref, text: saved.replace("name: notes", "name: Notes") });
    const order = { error: 0, warning: 1, info: 2 };
    const ranks = r.problems.map((p) => order[p.severity]);
    expect(ranks).toEqual([...ranks].sort());
    expect(r.problems.filter((p) => p.severity === "error").map((p) => p.source)).toEqual(["format", "doctor"]);
  });

  it("a finding the skill silences stays out of the list", async () => {
    const quiet = saved.replace("allowed-tools: Read\n", 'allowed-tools: Read\nmetadata: { doctor-ignore: "tools.*" }\n');
    writeSkillOnDisk(path.join(h.dataHome.projectRoot, ".omniforge", "skills", "notes"), { "SKILL.md": quiet });
    const r = await author().skill.check({ ref, text: quiet });
    expect(r.problems).toEqual([]);
  });
});
