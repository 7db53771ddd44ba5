// The doctor over the 40 public skills in shared/fixtures/real-skills: the report's counts per code are pinned
// (each reviewed by hand, see README.md), so a check that starts flagging more, or less, fails here first.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findSkillDirs } from "../skill/index";
import { doctorCatalog } from "./index";

const repoRoot = path.resolve(import.meta.dirname, "../../..");
const real = path.join(process.env.OMNIFORGE_SHARED_DIR ?? path.resolve(repoRoot, "../shared"), "fixtures", "real-skills");
const present = fs.existsSync(real);
if (!present) console.warn(`[doctor real-skills.test] SKIPPED: ${real} is absent (set OMNIFORGE_SHARED_DIR)`);

describe.skipIf(!present)("the doctor over the real skills", () => {
  it("pins the counts per code; nothing high (the fixtures carry no scripts: see SOURCES.md)", () => {
    const dirs = findSkillDirs(real);
    expect(dirs).toHaveLength(40);
    const r = doctorCatalog(dirs);
    const counts: Record<string, number> = {};
    for (const s of r.skills) for (const f of s.findings) counts[f.code] = (counts[f.code] ?? 0) + 1;
    expect(counts).toEqual({
      "description.no-when": 1,
      "description.overlap": 16,
      "description.vendor-word": 6,
      "refs.missing": 32,
      "refs.outside": 5,
      "refs.unreferenced": 7,
      "tools.unused": 6,
    });
    expect(r.skills.flatMap((s) => s.findings).filter((f) => f.severity === "high")).toEqual([]);
    const pairs = r.overlaps.map((o) => [o.aName, o.bName].sort().join(" ~ ")).sort();
    expect(pairs).toContain("algorithmic-art ~ canvas-design");
    expect(pairs).toContain("qdrant-horizontal-scaling ~ qdrant-scaling");
    expect(pairs).toHaveLength(8);
  });
});
