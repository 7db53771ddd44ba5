// skills-ref (the reference implementation, Python) beside our CLI in `npm run bench`: given a checkout in
// SKILLS_REF_DIR, it validates the same skill folders in one Python process, timed as a whole process like ours,
// and the figures are printed as a ratio. Nothing here is measured without a real checkout.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { median } from "./stats";

/** The folder holding the `skills_ref` package in a checkout of skills-ref or of agentskills/agentskills. */
export function skillsRefSource(checkout: string): string | null {
  for (const candidate of [path.join(checkout, "src"), path.join(checkout, "skills-ref", "src"), checkout]) {
    if (fs.existsSync(path.join(candidate, "skills_ref", "__init__.py")) || fs.existsSync(path.join(candidate, "skills_ref", "validator.py"))) return candidate;
  }
  return null;
}

// Imports skills_ref.validator.validate and validates every folder listed in argv[1], in one process.
const DRIVER = `import sys
from pathlib import Path
sys.path.insert(0, sys.argv[2])
from skills_ref.validator import validate
dirs = [line.rstrip("\\n") for line in open(sys.argv[1], encoding="utf-8") if line.strip()]
invalid = sum(1 for d in dirs if validate(Path(d)))
print(f"{len(dirs)} {invalid}")
`;

export interface SkillsRefRun {
  folders: number;
  invalid: number;
  msRuns: number[];
  msMedian: number;
}


/** Whole-process wall times of skills-ref validating `folders`; an error message when it cannot run. */
export function timeSkillsRef(checkout: string, folders: string[], runs: number, python = "python3"): SkillsRefRun | { error: string } {
  const src = skillsRefSource(checkout);
  if (!src) return { error: `no skills_ref package under ${checkout} (looked in src/, skills-ref/src/ and the folder itself)` };
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "of-skills-ref-"));
  try {
    const driver = path.join(work, "driver.py");
    const list = path.join(work, "folders.txt");
    fs.writeFileSync(driver, DRIVER);
    fs.writeFileSync(list, folders.join("\n") + "\n");
    const msRuns: number[] = [];
    let folderCount = 0;
    let invalid = 0;
    for (let r = 0; r < runs; r++) {
      const t0 = performance.now();
      const p = spawnSync(python, [driver, list, src], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
      const ms = performance.now() - t0;
      if (p.error) return { error: `${python}: ${p.error.message}` };
      if (p.status !== 0) return { error: `skills-ref failed (exit ${p.status}): ${(p.stderr || p.stdout).trim().split("\n").slice(-1)[0]}` };
      [folderCount, invalid] = p.stdout.trim().split(" ").map(Number) as [number, number];
      msRuns.push(Math.round(ms));
    }
    return { folders: folderCount, invalid, msRuns, msMedian: median(msRuns) };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Our median beside the reference's, as the bench prints it: ratio < 1 means we are faster. */
export function compareWithReference(oursMs: number, reference: SkillsRefRun | { error: string }): Record<string, unknown> {
  if ("error" in reference) return { skillsRef: { skipped: reference.error } };
  return {
    skillsRef: { msMedian: reference.msMedian, msRuns: reference.msRuns, folders: reference.folders, invalid: reference.invalid },
    ratioToSkillsRef: Math.round((oursMs / reference.msMedian) * 100) / 100,
    summary:
      oursMs <= reference.msMedian
        ? `${oursMs} ms vs skills-ref ${reference.msMedian} ms: ${(reference.msMedian / oursMs).toFixed(1)}x faster`
        : `${oursMs} ms vs skills-ref ${reference.msMedian} ms: ${(oursMs / reference.msMedian).toFixed(1)}x slower`,
  };
}
