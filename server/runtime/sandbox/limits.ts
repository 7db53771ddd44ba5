// Default limits for one script run (SANDBOX.md §5.1) and the merge of per-request overrides.
import type { ScriptLimits } from "./types";

const MiB = 1024 * 1024;

export const DEFAULT_LIMITS: Readonly<ScriptLimits> = Object.freeze({
  wallMs: 30_000,
  cpuSeconds: 5,
  memoryBytes: 512 * MiB,
  processes: 64,
  outputBytes: 1 * MiB,
  fileBytes: 10 * MiB,
});

/** Without a cgroup nothing bounds the whole process tree, so the worst case is processes × memory (§5.3). */
export const NO_CGROUP_CEILING: Readonly<Pick<ScriptLimits, "memoryBytes" | "processes">> = Object.freeze({
  memoryBytes: 256 * MiB,
  processes: 16,
});

/**
 * A run's share of the CPU when something else wants it too, as a fraction of an ordinary process's. Each run has
 * a cgroup of its own, and the kernel weighs that cgroup against the console's whole process: at the default a
 * playground turn's scripts took as much of two cores as every request of the console together (issue 15, load
 * bench). A script on an idle machine still gets its full core (the quota).
 */
export const SCRIPT_CPU_SHARE = 0.1;

const KEYS = Object.keys(DEFAULT_LIMITS) as (keyof ScriptLimits)[];

/** Checks a limits object from the host's configuration; throws with a clear message on bad values. */
export function checkLimits(limits: Partial<ScriptLimits> | undefined, what: string): Partial<ScriptLimits> {
  const out: Partial<ScriptLimits> = {};
  if (!limits) return out;
  for (const key of Object.keys(limits) as (keyof ScriptLimits)[]) {
    if (!KEYS.includes(key)) throw new Error(`${what}: unknown limit "${String(key)}"`);
    const value = limits[key];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
      throw new Error(`${what}: limit ${key} must be a positive number, got ${String(value)}`);
    }
    out[key] = Math.ceil(value);
  }
  return out;
}

/**
 * The limits of one run: the request may tighten the runner's limits, never loosen them
 * (a request comes from an agent or a skill; only the host configures the ceiling).
 */
export function effectiveLimits(ceiling: ScriptLimits, request: Partial<ScriptLimits> | undefined, cgroup: boolean): ScriptLimits {
  const asked = checkLimits(request, "script limits");
  const out = { ...ceiling };
  for (const key of KEYS) {
    const v = asked[key];
    if (v !== undefined) out[key] = Math.min(v, ceiling[key]);
  }
  if (!cgroup) {
    out.memoryBytes = Math.min(out.memoryBytes, NO_CGROUP_CEILING.memoryBytes);
    out.processes = Math.min(out.processes, NO_CGROUP_CEILING.processes);
  }
  return out;
}

export function formatBytes(n: number): string {
  if (n >= MiB && n % MiB === 0) return `${n / MiB} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
