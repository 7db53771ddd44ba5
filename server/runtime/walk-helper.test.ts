// The helper thread of the CLI's big walks: a real worker thread (loading its job module through tsx, as from
// source), real shared counters. What a person relies on: every unit's result arrives exactly once, whichever thread
// made it, and the command finishes even when the helper fails, hangs or never starts.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { type JobParams, type JobResult, joinFlag, square } from "../test-support/walk-helper-jobs";
import { scanThreadFrom, startWalkHelper } from "./walk-helper";

const jobs = pathToFileURL(new URL("../test-support/walk-helper-jobs.ts", import.meta.url).pathname).href;
const units = (n: number) => Array.from({ length: n }, (_, i) => i);

function shareAll(params: JobParams, n: number, silenceMs?: number) {
  const helper = startWalkHelper(jobs, "square", square, { enabled: true, cpus: 2, silenceMs });
  expect(helper).not.toBeNull();
  const got: JobResult[] = [];
  const indexes: number[] = [];
  const t0 = Date.now();
  let helped: number;
  try {
    helped = helper!.share(params, units(n), (r, i) => {
      got.push(r);
      indexes.push(i);
    });
  } finally {
    helper!.close();
  }
  // What share says the helper made is what the results say.
  expect(helped).toBe(got.filter((r) => r.thread !== 0).length);
  return { got, indexes, ms: Date.now() - t0 };
}

const everyUnitOnce = (got: JobResult[], indexes: number[], n: number) => {
  expect([...indexes].sort((a, b) => a - b)).toEqual(units(n));
  expect(got.map((r) => r.unit).sort((a, b) => a - b)).toEqual(units(n));
  for (const r of got) expect(r.square).toBe(r.unit * r.unit);
};

describe("walk helper", () => {
  it("hands every unit's result over exactly once, some made on the helper thread and some here", () => {
    // This thread waits in its first unit until the helper (started through tsx: a few hundred ms, seconds on a busy
    // machine) has made a result, so both threads take part whatever the load.
    const { got, indexes } = shareAll({ slowHere: 1, helperJoined: joinFlag() }, 60);
    everyUnitOnce(got, indexes, 60);
    const byHelper = got.filter((r) => r.thread !== 0);
    expect(byHelper.length).toBeGreaterThan(0);
    expect(got.length - byHelper.length).toBeGreaterThan(0);
  }, 30_000);

  it("does here every unit the helper failed at", () => {
    const { got, indexes } = shareAll({ slowHere: 1, helperThrows: "odd", helperJoined: joinFlag() }, 60);
    everyUnitOnce(got, indexes, 60);
    // The helper took part (even units), and every odd unit was made here after it refused it.
    expect(got.some((r) => r.thread !== 0)).toBe(true);
    for (const r of got) if (r.unit % 2 === 1) expect(r.thread).toBe(0);
  }, 30_000);

  it("does the unit a silent helper holds once the silence lasts too long", () => {
    // The helper holds a unit before this thread goes on (the flag), so the silence is what ends the run.
    const { got, indexes, ms } = shareAll({ slowHere: 1, helperHangs: true, helperJoined: joinFlag() }, 60, 400);
    everyUnitOnce(got, indexes, 60);
    expect(got.every((r) => r.thread === 0)).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(400);
  }, 30_000);

  it("finishes alone when the helper cannot load its module", () => {
    // A silence longer than the test's own timeout: waiting for a helper that never started would fail the test.
    const helper = startWalkHelper<JobParams, number, JobResult>(pathToFileURL("/nonexistent/jobs.mjs").href, "square", square, {
      enabled: true,
      cpus: 2,
      silenceMs: 60_000,
    });
    const got: JobResult[] = [];
    helper!.share({ slowHere: 1 }, units(20), (r) => got.push(r));
    helper!.close();
    expect(got.map((r) => r.unit).sort((a, b) => a - b)).toEqual(units(20));
  });

  it("keeps what the helper thread writes out of the command's output", () => {
    const repo = path.resolve(import.meta.dirname, "../..");
    const r = spawnSync(process.execPath, ["--import", "tsx", path.join(repo, "server/test-support/walk-helper-jobs.ts")], { cwd: repo, encoding: "utf8", timeout: 30_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("done\n");
    expect(r.stderr).toBe("");
  }, 30_000);

  it("starts no thread when turned off or with one processor", () => {
    expect(startWalkHelper(jobs, "square", square, { enabled: false, cpus: 8 })).toBeNull();
    expect(startWalkHelper(jobs, "square", square, { enabled: true, cpus: 1 })).toBeNull();
  });

  it("OMNIFORGE_SCAN_THREAD: on unless 0, off, false or no", () => {
    expect(scanThreadFrom({})).toBe(true);
    expect(scanThreadFrom({ OMNIFORGE_SCAN_THREAD: "1" })).toBe(true);
    for (const off of ["0", "off", "FALSE", " no "]) expect(scanThreadFrom({ OMNIFORGE_SCAN_THREAD: off })).toBe(false);
  });
});
