// Compatibility with real public skills (shared fixtures): every one loads under omniforge rules, and the
// spec verdict agrees with the strict check recorded in SOURCES.md for each folder.
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { describeNeeding, has, sharedDir, sharedFixture } from "../../test-support/needs";
import { checkSkillDir, findSkillDirs } from "./index";

const root = path.join(sharedDir, "fixtures/real-skills");
const fixtures = sharedFixture("fixtures/real-skills/SOURCES.md");
const exists = has(fixtures);

/** Folder -> "pass" or the recorded failure reason, from SOURCES.md's table. */
function recorded(): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of fs.readFileSync(path.join(root, "SOURCES.md"), "utf8").split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    const folder = /^`([^`]+)`$/.exec(cells[1] ?? "")?.[1];
    const verdict = cells[6];
    if (folder && verdict && (verdict === "pass" || verdict.startsWith("FAIL"))) out.set(folder, verdict);
  }
  return out;
}

// Rules that SOURCES.md's strict check does not cover but the spec (and the conformance cases
// meta-nested-map and tools-block-list) does: a spec error of these codes does not contradict a "pass".
const STRICTER_THAN_RECORDED = new Set(["metadata.value-type", "allowed-tools.type"]);

describeNeeding(fixtures, "real public skills", () => {
  const expected = exists ? recorded() : new Map<string, string>();
  const dirs = exists ? findSkillDirs(root) : [];

  it("finds every recorded skill folder, nested ones included", () => {
    expect(dirs.map((d) => path.relative(root, d)).sort()).toEqual([...expected.keys()].sort());
  });

  it("every skill loads under omniforge; spec verdicts match the recorded strict check", () => {
    const counts = { skills: dirs.length, loadableOmniforge: 0, validOmniforge: 0, validSpec: 0, recordedPass: 0 };
    for (const dir of dirs) {
      const rel = path.relative(root, dir);
      const omni = checkSkillDir(dir, { rules: "omniforge" });
      expect(omni.loadable, `${rel} should load: ${JSON.stringify(omni.diagnostics)}`).toBe(true);
      if (omni.loadable) counts.loadableOmniforge++;
      if (omni.valid) counts.validOmniforge++;

      const spec = checkSkillDir(dir, { rules: "spec" });
      if (spec.valid) counts.validSpec++;
      const errors = spec.diagnostics.filter((d) => d.severity === "error");
      const verdict = expected.get(rel)!;
      if (verdict === "pass") {
        counts.recordedPass++;
        expect(errors.filter((d) => !STRICTER_THAN_RECORDED.has(d.code)), rel).toEqual([]);
        continue;
      }
      expect(spec.valid, rel).toBe(false);
      const fields = /non-spec top-level fields: (.*)$/.exec(verdict)?.[1];
      if (fields) {
        for (const field of fields.split(",").map((f) => f.trim())) {
          expect(errors.some((d) => d.code === "field.unknown" && d.message.includes(`"${field}"`)), `${rel}: ${field}`).toBe(true);
        }
      }
      if (verdict.includes("description length")) expect(errors.map((d) => d.code), rel).toContain("description.too-long");
      if (verdict.includes("!= directory")) expect(errors.map((d) => d.code), rel).toContain("name.directory-mismatch");
    }
    console.info(`real skills: ${JSON.stringify(counts)}`);
    expect(counts.loadableOmniforge).toBe(dirs.length);
  });
});
