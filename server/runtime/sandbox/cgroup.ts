// Per-run cgroups: the only limit on the whole process tree (aggregate memory, pids). v1 is what
// this machine has (SANDBOX.md §1); the v2 path is small, guarded and untested here (§5.5).
import fs from "node:fs";
import path from "node:path";
import { SCRIPT_CPU_SHARE } from "./limits";
import type { ScriptLimits } from "./types";

export interface CgroupLayout {
  version: 1 | 2;
  /** v1: the server's own cgroup per controller; v2: the server's unified cgroup. */
  parents: { pids: string; memory: string; cpu: string } | { unified: string };
  memsw: boolean;
}

export interface RunCgroup {
  /** The directories whose cgroup.procs the joining shell writes. */
  dirs: string[];
  layout: CgroupLayout;
}

const CG_ROOT = "/sys/fs/cgroup";
/** What a cgroup weighs when nobody set it: v1's cpu.shares, v2's cpu.weight. */
const V1_DEFAULT_SHARES = 1024;
const V2_DEFAULT_WEIGHT = 100;

/** Reads /proc/self/cgroup and finds where this process's cgroups live; null with a reason when unusable. */
export function detectCgroups(): { layout: CgroupLayout } | { error: string } {
  let lines: string[];
  try {
    lines = fs.readFileSync("/proc/self/cgroup", "utf8").trim().split("\n");
  } catch {
    return { error: "cannot read /proc/self/cgroup" };
  }
  const v2Controllers = readOr(path.join(CG_ROOT, "cgroup.controllers"), "").split(/\s+/);
  if (["memory", "pids", "cpu"].every((c) => v2Controllers.includes(c))) {
    const line = lines.find((l) => l.startsWith("0::"));
    if (!line) return { error: "cgroup v2 is mounted but /proc/self/cgroup has no 0:: line" };
    const unified = pickDir(CG_ROOT, line.slice(3));
    return { layout: { version: 2, parents: { unified }, memsw: fs.existsSync(path.join(unified, "memory.swap.max")) } };
  }
  const found: Record<string, string> = {};
  for (const line of lines) {
    const [, controllers, rel] = line.match(/^\d+:([^:]*):(.*)$/) ?? [];
    if (controllers === undefined || rel === undefined) continue;
    for (const c of controllers.split(",")) {
      if (c !== "pids" && c !== "memory" && c !== "cpu") continue;
      const mount = [path.join(CG_ROOT, c), path.join(CG_ROOT, controllers)].find((m) => fs.existsSync(path.join(m, "cgroup.procs")));
      if (mount) found[c] = pickDir(mount, rel);
    }
  }
  const missing = ["pids", "memory", "cpu"].filter((c) => !found[c]);
  if (missing.length > 0) return { error: `no cgroup v1 or v2 controller for ${missing.join(", ")} under ${CG_ROOT}` };
  const memory = found.memory!;
  return {
    layout: {
      version: 1,
      parents: { pids: found.pids!, memory, cpu: found.cpu! },
      memsw: fs.existsSync(path.join(memory, "memory.memsw.limit_in_bytes")),
    },
  };
}

/** In a container the mount may already be the process's own subtree. */
function pickDir(mount: string, rel: string): string {
  const full = path.join(mount, rel);
  return fs.existsSync(full) ? full : mount;
}

function readOr(file: string, fallback: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return fallback;
  }
}

/** Creates the run's cgroups and writes the limits; on any failure removes what it made and throws. */
export function createRunCgroup(layout: CgroupLayout, name: string, limits: ScriptLimits, cpuShare = SCRIPT_CPU_SHARE): RunCgroup {
  const made: string[] = [];
  try {
    const mk = (parent: string) => {
      const dir = path.join(parent, name);
      fs.mkdirSync(dir);
      made.push(dir);
      return dir;
    };
    if ("unified" in layout.parents) {
      const dir = mk(layout.parents.unified);
      fs.writeFileSync(path.join(dir, "memory.max"), String(limits.memoryBytes));
      if (layout.memsw) fs.writeFileSync(path.join(dir, "memory.swap.max"), "0");
      fs.writeFileSync(path.join(dir, "pids.max"), String(limits.processes));
      fs.writeFileSync(path.join(dir, "cpu.max"), "100000 100000");
      fs.writeFileSync(path.join(dir, "cpu.weight"), String(Math.max(1, Math.round(cpuShare * V2_DEFAULT_WEIGHT))));
    } else {
      const pids = mk(layout.parents.pids);
      fs.writeFileSync(path.join(pids, "pids.max"), String(limits.processes));
      const memory = mk(layout.parents.memory);
      fs.writeFileSync(path.join(memory, "memory.limit_in_bytes"), String(limits.memoryBytes));
      // memsw must be written after the memory limit (it may not be lower than it).
      if (layout.memsw) fs.writeFileSync(path.join(memory, "memory.memsw.limit_in_bytes"), String(limits.memoryBytes));
      const cpu = mk(layout.parents.cpu);
      fs.writeFileSync(path.join(cpu, "cpu.cfs_period_us"), "100000");
      fs.writeFileSync(path.join(cpu, "cpu.cfs_quota_us"), "100000"); // one core; RLIMIT_CPU does the killing
      fs.writeFileSync(path.join(cpu, "cpu.shares"), String(Math.max(2, Math.round(cpuShare * V1_DEFAULT_SHARES))));
    }
    return { dirs: made, layout };
  } catch (err) {
    for (const dir of made.reverse()) tryRmdir(dir);
    throw err;
  }
}

/** What the counters say happened during the run (read before removal). */
export function cgroupEvents(cg: RunCgroup): { oomKills: number; pidsMaxHits: number } {
  let oomKills = 0;
  let pidsMaxHits = 0;
  for (const dir of cg.dirs) {
    const oom = readOr(path.join(dir, "memory.oom_control"), "") + readOr(path.join(dir, "memory.events"), "");
    const m = oom.match(/oom_kill (\d+)/);
    if (m) oomKills = Math.max(oomKills, Number(m[1]));
    const p = readOr(path.join(dir, "pids.events"), "").match(/max (\d+)/);
    if (p) pidsMaxHits = Math.max(pidsMaxHits, Number(p[1]));
  }
  return { oomKills, pidsMaxHits };
}

function tryRmdir(dir: string): boolean {
  try {
    fs.rmdirSync(dir);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT";
  }
}

/**
 * Removes the run's cgroups once the orphaned sandbox PID 1 is reaped (about 50 ms, SANDBOX.md §4.5).
 * Never blocks the caller; resolves true when everything is gone.
 */
export function removeRunCgroup(cg: RunCgroup, { tries = 100, delayMs = 50 } = {}): Promise<boolean> {
  return new Promise((resolve) => {
    let left = [...cg.dirs];
    let n = 0;
    const attempt = () => {
      left = left.filter((d) => !tryRmdir(d));
      if (left.length === 0) return resolve(true);
      if (++n >= tries) return resolve(false);
      setTimeout(attempt, delayMs); // ref: close() and the CLI wait for it (bounded: tries × delayMs)
    };
    attempt();
  });
}

/**
 * Removes sbx-* cgroups left behind (a crashed server, a removal that gave up). Only empty ones can
 * be removed at all (rmdir fails with EBUSY otherwise), and only old ones are tried, so a cgroup that
 * another server just created and has not joined yet is never taken: pids cannot tell, since the
 * v1 pids and cpu hierarchies may be shared with servers in other PID namespaces.
 */
export function sweepStaleCgroups(layout: CgroupLayout, { minAgeMs = 10 * 60_000, prefix = "sbx-" } = {}): number {
  const parents = "unified" in layout.parents ? [layout.parents.unified] : Object.values(layout.parents);
  let removed = 0;
  const now = Date.now();
  for (const parent of new Set(parents)) {
    let names: string[];
    try {
      names = fs.readdirSync(parent);
    } catch {
      continue;
    }
    for (const name of names) {
      if (!name.startsWith("sbx-") || !name.startsWith(prefix)) continue;
      const dir = path.join(parent, name);
      try {
        if (now - fs.statSync(dir).mtimeMs < minAgeMs) continue;
      } catch {
        continue;
      }
      if (tryRmdir(dir)) removed++;
    }
  }
  return removed;
}

/**
 * The race-free join (SANDBOX.md §4.5): a tiny sh writes its own pid into each cgroup, then execs
 * the rest. The directories travel as arguments, never inside the script text.
 */
export function joinPrefix(cg: RunCgroup): string[] {
  return [
    "/bin/sh",
    "-c",
    'while [ "$1" != -- ]; do echo $$ > "$1/cgroup.procs" || exit 125; shift; done; shift; exec "$@"',
    "cgjoin",
    ...cg.dirs,
    "--",
  ];
}
