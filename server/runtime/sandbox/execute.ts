// Running one planned script: scratch and skill made reachable for the sandbox user, a cgroup for the run,
// the SANDBOX.md §5.2 chain (cgroup join, private bind, setpriv, bwrap, prlimit), and which limits it hit.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type BindTools, bwrapArgs, privateBindArgs, prlimitArgs, SANDBOX_ENV_PATH, setprivArgs, type ToolPaths } from "./command-line";
import { cgroupEvents, createRunCgroup, joinPrefix, removeRunCgroup, type CgroupLayout, type RunCgroup } from "./cgroup";
import { effectiveLimits } from "./limits";
import type { Plan } from "./request-plan";
import { prepareScratch } from "./scratch-dir";
import { SandboxRefusal } from "./script-path";
import type { Check } from "./self-test";
import { blockedAncestor, readableCopy, unreadableInside } from "./skill-access";
import { runCapped } from "./spawn-capped";
import type { ScriptLimits, ScriptResult } from "./types";

/** What a Sandbox fixes at construction and every run reads. */
export interface RunnerContext {
  tools: ToolPaths;
  bindTools: BindTools;
  uid: number;
  gid: number;
  root: boolean;
  /** The sandbox's own folder (synthetic /etc files, private skill copies, bind mount points). */
  runtimeDir: string;
  /** Defaults and ceiling for every run. */
  limits: ScriptLimits;
  /** A run's CPU weight against an ordinary process's (SandboxOptions.cpuShare). */
  cpuShare: number;
  scratchRoot?: string;
  /** The self-test's private-bind check, asked only when a scratch folder sits in a private data home. */
  privateBindCheck: () => Promise<Check | undefined>;
  /** Keeps a cleanup that finishes after the run, so close() can wait for it. */
  track: (p: Promise<unknown>) => void;
}

let runCounter = 0;

export async function executePlan(ctx: RunnerContext, plan: Plan, sandboxed: boolean, layout: CgroupLayout | undefined): Promise<ScriptResult> {
  const id = ++runCounter; // per process, not per instance: two runners must never share a cgroup name
  if (!sandboxed && plan.hidden.length > 0) {
    // Without namespaces nothing can be covered, and a command that could read the scripts is not run.
    throw new SandboxRefusal(
      "Without the sandbox (unsafe mode) a shell command cannot be kept from reading the skill's scripts/, so it is not run; run a script with run_script",
    );
  }
  const limits = effectiveLimits(ctx.limits, plan.limits, layout !== undefined);
  const scratchBlocked = prepareScratch(plan.scratchDir, ctx);
  // Folders in a private data home (0700, as ~/.omniforge is): root binds them, in a mount namespace of this
  // run, onto empty folders the sandbox user can reach; the home's modes stay as they are.
  const binds: { source: string; mountPoint: string; what: string }[] = [];
  const bind = (source: string, what: "scratch" | "skill") => {
    const mountPoint = path.join(ctx.runtimeDir, "mnt", `run-${process.pid}-${id}-${what}`);
    fs.mkdirSync(path.dirname(mountPoint), { recursive: true, mode: 0o755 });
    fs.mkdirSync(mountPoint, { mode: 0o755 });
    binds.push({ source, mountPoint, what: `${what} folder` });
    return mountPoint;
  };
  let cg: RunCgroup | undefined;
  let copy: string | undefined;
  // Everything made for the run from here on (mount points, a copy, the cgroup) goes in the finally below, also
  // when the run is refused or fails before it starts.
  try {
    let scratchBind = plan.scratchDir;
    if (scratchBlocked) {
      if (!sandboxed) {
        throw new SandboxRefusal(`The scratch folder ${plan.scratchDir} is inside ${scratchBlocked}, which the script's user cannot enter (unsafe mode has no bind mounts)`);
      }
      const check = await ctx.privateBindCheck();
      if (!check?.ok) {
        throw new SandboxRefusal(
          `The sandbox user cannot reach the scratch folder: ${scratchBlocked} is private and this host cannot bind it privately (${check?.detail ?? "not checked"}); ` +
            `make it searchable (chmod o+x ${scratchBlocked}) or keep the data home where mount namespaces work`,
        );
      }
      scratchBind = bind(plan.scratchDir, "scratch");
    }

    let skillBind = plan.skillDir;
    if (sandboxed && ctx.root) {
      const inside = unreadableInside(plan.skillDir, ctx.uid, ctx.gid);
      const blocked = inside ? null : blockedAncestor(plan.skillDir, ctx.uid, ctx.gid);
      if (blocked && (await ctx.privateBindCheck())?.ok) {
        // Only the way in is closed: bound like the scratch folder. A copy writes every file of the skill, sets
        // its modes and removes it again: a quarter of a run's CPU for a skill of 12 small files (15.5 -> 12 ms).
        skillBind = bind(plan.skillDir, "skill");
      } else if (inside || blocked) {
        copy = path.join(ctx.runtimeDir, "copies", `run-${process.pid}-${id}`);
        fs.mkdirSync(path.dirname(copy), { recursive: true, mode: 0o755 });
        readableCopy(plan.skillDir, copy);
        skillBind = copy;
      }
    }

    if (layout) cg = createRunCgroup(layout, `sbx-${process.pid}-${id}-${crypto.randomBytes(3).toString("hex")}`, limits, ctx.cpuShare);
    const prefix = [
      ...(cg ? joinPrefix(cg) : []),
      ...(binds.length ? privateBindArgs(ctx.bindTools, binds) : []),
      ...(ctx.root ? setprivArgs(ctx.tools.setpriv, ctx.uid, ctx.gid) : []),
    ];
    const argv = sandboxed
      ? [
          ...prefix,
          ...bwrapArgs(ctx.tools.bwrap, { runtimeDir: ctx.runtimeDir, skillDir: skillBind, scratchDir: scratchBind, env: plan.env, workdir: plan.workdir, hidden: plan.hidden }),
          ...prlimitArgs(ctx.tools.prlimit, limits),
          ...plan.inner,
        ]
      : [
          ...prefix,
          ...prlimitArgs(ctx.tools.prlimit, limits),
          // The request's variables are set only here, after the uid drop, never in setpriv's own env.
          "/usr/bin/env",
          "-i",
          ...Object.entries({ PATH: SANDBOX_ENV_PATH, HOME: plan.scratchDir, TMPDIR: plan.scratchDir, LANG: "C.UTF-8", ...plan.env }).map(
            ([k, v]) => `${k}=${v}`,
          ),
          ...plan.unsafeInner,
        ];
    if (!sandboxed) console.warn(`[sandbox] WARNING: running WITHOUT isolation (OMNIFORGE_SANDBOX=unsafe): ${plan.display.join(" ")}`);
    const raw = await runCapped({
      argv,
      // Never the server's environment: bwrap's PID 1 keeps its env, readable via /proc/1/environ (SANDBOX.md, section 4.1).
      env: { PATH: SANDBOX_ENV_PATH },
      cwd: sandboxed ? "/" : path.join(plan.scratchDir, plan.workdir ?? ""),
      stdin: plan.stdin,
      wallMs: limits.wallMs,
      outputBytes: limits.outputBytes,
      signal: plan.signal,
      killGroup: !sandboxed,
    });
    if (raw.spawnError) throw new SandboxRefusal(raw.spawnError);
    if (binds.length && raw.exitCode === 125 && raw.stdout === "" && /mount/i.test(raw.stderr)) {
      throw new SandboxRefusal(`The ${binds.map((b) => b.what).join(" and ")} could not be bound for the sandbox user: ${raw.stderr.trim().split("\n").slice(-1)[0]}`);
    }
    const limitsHit: string[] = [];
    if (raw.timedOut) limitsHit.push("wall");
    if (raw.truncated) limitsHit.push("output");
    if (raw.signal === "SIGXCPU") limitsHit.push("cpu");
    if (raw.signal === "SIGXFSZ") limitsHit.push("file");
    if (cg) {
      const ev = cgroupEvents(cg);
      if (ev.oomKills > 0) limitsHit.push("memory");
      if (ev.pidsMaxHits > 0) limitsHit.push("processes");
    }
    return {
      exitCode: raw.exitCode,
      ...(raw.signal ? { signal: raw.signal } : {}),
      stdout: raw.stdout,
      stderr: raw.stderr,
      truncated: raw.truncated,
      timedOut: raw.timedOut,
      durationMs: raw.durationMs,
      sandboxed,
      command: plan.display,
      ...(raw.cancelled ? { cancelled: true } : {}),
      ...(limitsHit.length > 0 ? { limitsHit } : {}),
    };
  } finally {
    if (cg) ctx.track(removeRunCgroup(cg));
    if (copy) fs.rmSync(copy, { recursive: true, force: true });
    // The binds lived in the run's own mount namespace: on the host these are empty folders. rmdir, never a
    // recursive delete: should a bind ever show on the host, this fails instead of emptying what it shows.
    for (const b of binds) fs.rmdirSync(b.mountPoint);
  }
}
