// The doctor over the 40 public skills in shared/fixtures/real-skills: the report's counts per code are pinned
// (each reviewed by hand, see README.md), so a check that starts flagging more, or less, fails here first.
import path from "node:path";
import { expect, it } from "vitest";
import { describeNeeding, sharedDir, sharedFixture } from "../../test-support/needs";
import { findSkillDirs } from "../skill/index";
import { doctorCatalog } from "./index";

// Through describeNeeding like every fixture suite: listed with its reason when skipped, failed under CI.
const real = path.join(sharedDir, "fixtures", "real-skills");

describeNeeding(sharedFixture("fixtures/real-skills/SOURCES.md"), "the doctor over the real skills", () => {
  it("pins the counts per code; nothing high (the fixtures carry no scripts: see SOURCES.md)", () => {
    const dirs = findSkillDirs(real);
    expect(dirs).toHaveLength(40);
    const r = doctorCatalog(dirs);
    const counts: Record<string, number> = {};
    for (const s of r.skills) for (const f of s.findings) counts[f.code] = (counts[f.code] ?? 0) + 1;
    expect(counts).toEqual({
      "description.no-when": 1,
      "description.overlap": 22,
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
    expect(pairs).toHaveLength(11);
  });
});
