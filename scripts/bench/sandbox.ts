// Sandbox benchmark: what one script run costs beyond the script itself (issue 15: a playground turn runs several,
// on the console's machine). `bash -c true` in the real sandbox, one run after another, for a skill in a folder
// anyone can reach and for one in a private (0700) data home, as ~/.omniforge is (bound for the run, not copied).
// Reports wall and CPU per run (this process and the processes it waits for, from /proc; Linux only) and a bare
// spawn of /bin/true from the same process as the floor. Needs root and bubblewrap; says why when it cannot run.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createSandbox } from "../../server/runtime/sandbox/index";
import { median } from "./lib/stats";

export const name = "sandbox";

const RUNS = 40;

/** CPU time (ms) of this process and of its children it has waited for. */
function cpuMs(): number {
  const stat = fs.readFileSync("/proc/self/stat", "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime stime cutime cstime, in USER_HZ (100 on Linux)
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 10;
}

const r1 = (x: number) => Math.round(x * 10) / 10;

/** A skill of 12 small files and a script, as many real ones are. */
function writeSkill(dir: string): void {
  fs.mkdirSync(path.join(dir, "references"), { recursive: true });
  fs.mkdirSync(path.join(dir, "scripts"), { recursive: true });
  fs.writeFileSync(path.join(dir, "SKILL.md"), "---\nname: bench\ndescription: A benchmark skill. Use when timing the sandbox.\n---\n# Bench\n");
  for (let i = 0; i < 10; i++) fs.writeFileSync(path.join(dir, "references", `r${i}.md`), `# Reference ${i}\n` + "Some text of a reference file.\n".repeat(120));
  fs.writeFileSync(path.join(dir, "scripts", "run.sh"), "echo ran\n", { mode: 0o755 });
}

async function timeRuns(run: () => Promise<void> | void): Promise<{ wallMsMedian: number; cpuMsPerRun: number }> {
  for (let i = 0; i < 5; i++) await run();
  const walls: number[] = [];
  const cpu0 = cpuMs();
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await run();
    walls.push(performance.now() - t0);
  }
  // Cleanups a run leaves to a timer (its cgroup) finish before the CPU is read.
  await new Promise((r) => setTimeout(r, 300));
  return { wallMsMedian: r1(median(walls)), cpuMsPerRun: r1((cpuMs() - cpu0) / RUNS) };
}

export async function run(): Promise<Record<string, unknown>> {
  if (process.platform !== "linux") return { skipped: "Linux only (bubblewrap, /proc)" };
  if (process.getuid?.() !== 0) return { skipped: "needs root: the sandbox drops to its own user and makes cgroups" };
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "of-bench-sandbox-"));
  fs.chmodSync(base, 0o755); // mkdtemp makes it private; only the home below is meant to be
  const sandbox = createSandbox({ maxConcurrent: 2 });
  try {
    const status = await sandbox.status();
    if (status.mode !== "sandboxed" && status.mode !== "sandboxed-no-cgroup") return { skipped: `the sandbox is ${status.mode}: ${status.detail}` };
    const open = path.join(base, "open");
    const home = path.join(base, "home");
    fs.mkdirSync(open, { mode: 0o755 });
    fs.mkdirSync(home, { mode: 0o700 });
    writeSkill(path.join(open, "skill"));
    writeSkill(path.join(home, "skills", "bench"));
    const scratchOf = (root: string) => {
      const dir = path.join(root, "scratch");
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      return dir;
    };
    const runIn = (skillDir: string, scratchDir: string) => async () => {
      const r = await sandbox.run({ skillDir, scratchDir, command: "true" });
      if (r.exitCode !== 0) throw new Error(`bench sandbox: a run failed: ${r.refused ?? r.stderr}`);
    };
    const floor = await timeRuns(() => {
      spawnSync("/bin/true");
    });
    const openRuns = await timeRuns(runIn(path.join(open, "skill"), scratchOf(open)));
    const privateRuns = await timeRuns(runIn(path.join(home, "skills", "bench"), scratchOf(home)));
    return {
      mode: status.mode,
      runs: RUNS,
      spawnFloor: { ...floor, what: "spawnSync('/bin/true') from this process" },
      openFolder: { ...openRuns, cpuRatioToFloor: r1(openRuns.cpuMsPerRun / Math.max(floor.cpuMsPerRun, 0.1)) },
      privateHome: { ...privateRuns, what: "skill and scratch inside a 0700 folder, bound for each run" },
    };
  } finally {
    await sandbox.close();
    fs.rmSync(base, { recursive: true, force: true });
  }
}
