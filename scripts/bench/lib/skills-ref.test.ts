// The skills-ref comparison code path of `npm run bench`, exercised with a fake `skills_ref` package standing in
// for a checkout (skills-ref itself is not installed here). This checks the plumbing and the ratio printing only;
// nothing it times is a measurement.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compareWithReference, skillsRefSource, timeSkillsRef } from "./skills-ref";

const hasPython = spawnSync("python3", ["-c", "0"]).status === 0;
const base = fs.mkdtempSync(path.join(os.tmpdir(), "of-skills-ref-fake-"));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

/** A checkout-shaped folder whose validator calls a folder invalid when its name starts with "bad". */
function fakeCheckout(layout: "src" | "monorepo"): string {
  const root = path.join(base, layout);
  const pkg = path.join(root, layout === "src" ? "src" : "skills-ref/src", "skills_ref");
  fs.mkdirSync(pkg, { recursive: true });
  fs.writeFileSync(path.join(pkg, "__init__.py"), "");
  fs.writeFileSync(path.join(pkg, "validator.py"), "def validate(p):\n    return ['bad'] if p.name.startswith('bad') else []\n");
  return root;
}

describe("skills-ref beside our figures", () => {
  it("finds the package in a skills-ref checkout and in an agentskills checkout", () => {
    expect(skillsRefSource(fakeCheckout("src"))).toBe(path.join(base, "src", "src"));
    expect(skillsRefSource(fakeCheckout("monorepo"))).toBe(path.join(base, "monorepo", "skills-ref", "src"));
    expect(skillsRefSource(path.join(base, "nothing-here"))).toBeNull();
  });

  it.skipIf(!hasPython)("runs the validator over the folders in one process per run and prints the ratio", () => {
    const folders = ["ok-1", "bad-1", "ok-2"].map((n) => path.join(base, "skills", n));
    const ref = timeSkillsRef(fakeCheckout("src"), folders, 3);
    expect("error" in ref).toBe(false);
    if ("error" in ref) return;
    expect(ref).toMatchObject({ folders: 3, invalid: 1 });
    expect(ref.msRuns).toHaveLength(3);
    const printed = compareWithReference(50, { ...ref, msMedian: 200 });
    expect(printed).toMatchObject({ ratioToSkillsRef: 0.25, summary: "50 ms vs skills-ref 200 ms: 4.0x faster" });
    expect(compareWithReference(300, { ...ref, msMedian: 200 })).toMatchObject({ ratioToSkillsRef: 1.5, summary: "300 ms vs skills-ref 200 ms: 1.5x slower" });
  });

  it("a checkout that cannot run is reported as skipped, with the reason", () => {
    expect(compareWithReference(50, timeSkillsRef(path.join(base, "nothing-here"), [], 1))).toEqual({
      skillsRef: { skipped: expect.stringContaining("no skills_ref package") },
    });
    const broken = path.join(base, "broken");
    fs.mkdirSync(path.join(broken, "src", "skills_ref"), { recursive: true });
    fs.writeFileSync(path.join(broken, "src", "skills_ref", "__init__.py"), "");
    fs.writeFileSync(path.join(broken, "src", "skills_ref", "validator.py"), "import strictyaml_missing_here\n");
    if (hasPython) expect(compareWithReference(50, timeSkillsRef(broken, [base], 1))).toEqual({ skillsRef: { skipped: expect.stringContaining("skills-ref failed") } });
  });
});
