import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { createRunCgroup, detectCgroups, joinPrefix, removeRunCgroup, sweepStaleCgroups } from "./cgroup";
import { cgroups, describeNeeding, has } from "../../test-support/needs";
import { DEFAULT_LIMITS } from "./limits";

const found = has(cgroups()) ? detectCgroups() : null;
const layout = found && "layout" in found ? found.layout : undefined;

describeNeeding(cgroups(), "per-run cgroups", () => {
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
        // a tenth of an ordinary process's weight when the CPU is contended
        expect(read("/cpu.shares")).toBe("102");
      } else {
        expect(read("/cpu.max")).toBe("100000 100000");
        expect(read("/cpu.weight")).toBe("10");
      }
      expect(joinPrefix(cg).slice(0, 2)).toEqual(["/bin/sh", "-c"]);
    } finally {
      expect(await removeRunCgroup(cg)).toBe(true);
    }
    for (const d of cg.dirs) expect(fs.existsSync(d)).toBe(false);
  });

  it("sweeps old empty cgroups, never recent or busy ones", async () => {
    // A prefix of its own: a sweep with age 0 must not race with other tests' fresh cgroups.
    const prefix = `sbx-${process.pid}-sweeptest-${Date.now()}`;
    const stale = createRunCgroup(layout!, `${prefix}-stale`, DEFAULT_LIMITS);
    const busy = createRunCgroup(layout!, `${prefix}-busy`, DEFAULT_LIMITS);
    const sleeper = spawn("/usr/bin/sleep", ["30"], { stdio: "ignore" });
    try {
      for (const d of busy.dirs) fs.writeFileSync(path.join(d, "cgroup.procs"), String(sleeper.pid));
      sweepStaleCgroups(layout!, { prefix }); // default age: both are too recent
      for (const d of [...stale.dirs, ...busy.dirs]) expect(fs.existsSync(d)).toBe(true);
      sweepStaleCgroups(layout!, { minAgeMs: 0, prefix });
      for (const d of stale.dirs) expect(fs.existsSync(d)).toBe(false);
      for (const d of busy.dirs) expect(fs.existsSync(d)).toBe(true); // a process is inside: EBUSY
    } finally {
      sleeper.kill("SIGKILL");
      await new Promise((r) => sleeper.once("exit", r));
      expect(await removeRunCgroup({ ...busy, dirs: [...stale.dirs, ...busy.dirs] })).toBe(true);
    }
  });
});
