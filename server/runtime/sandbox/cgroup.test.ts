import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createRunCgroup, detectCgroups, joinPrefix, removeRunCgroup, sweepStaleCgroups } from "./cgroup";
import { DEFAULT_LIMITS } from "./limits";

const found = process.getuid?.() === 0 ? detectCgroups() : { error: "not root" };
const layout = "layout" in found ? found.layout : undefined;
if (!layout) console.warn(`[cgroup.test] SKIPPED cgroup tests: ${"error" in found ? found.error : ""}`);

describe.skipIf(!layout)("per-run cgroups", () => {
  it("creates the run's cgroups with the limits written, then removes them", async () => {
    const cg = createRunCgroup(layout!, `sbx-${process.pid}-unit-${Date.now()}`, DEFAULT_LIMITS);
    try {
      expect(cg.dirs.length).toBeGreaterThan(0);
      const files = cg.dirs.flatMap((d) => fs.readdirSync(d).map((f) => path.join(d, f)));
      const read = (suffix: string) => fs.readFileSync(files.find((f) => f.endsWith(suffix))!, "utf8").trim();
      if (layout!.version === 1) {
        expect(read("/pids.max")).toBe("64");
        expect(read("/memory.limit_in_bytes")).toBe(String(512 * 1024 * 1024));
        expect(read("/cpu.cfs_quota_us")).toBe("100000");
      }
      expect(joinPrefix(cg).slice(0, 2)).toEqual(["/bin/sh", "-c"]);
    } finally {
      expect(await removeRunCgroup(cg)).toBe(true);
    }
    for (const d of cg.dirs) expect(fs.existsSync(d)).toBe(false);
  });

  it("sweeps cgroups of dead servers and keeps those of live ones", () => {
    const deadPid = 4_000_000; // above pid_max's default, never alive
    const dead = createRunCgroup(layout!, `sbx-${deadPid}-stale`, DEFAULT_LIMITS);
    const live = createRunCgroup(layout!, `sbx-${process.pid}-live`, DEFAULT_LIMITS);
    try {
      expect(sweepStaleCgroups(layout!)).toBeGreaterThanOrEqual(dead.dirs.length);
      for (const d of dead.dirs) expect(fs.existsSync(d)).toBe(false);
      for (const d of live.dirs) expect(fs.existsSync(d)).toBe(true);
    } finally {
      for (const d of [...dead.dirs, ...live.dirs]) if (fs.existsSync(d)) fs.rmdirSync(d);
    }
  });
});
