// The ScriptRunner: validates a request (request-plan.ts), waits for a slot, and runs it (execute.ts).
// Mode and self-test (self-test-run.ts) are computed once and cached.
import fs from "node:fs";
import path from "node:path";
import { checkLimits, DEFAULT_LIMITS, SCRIPT_CPU_SHARE } from "./limits";
import { executePlan, type RunnerContext } from "./execute";
import { displayOf, planRequest, refusal, type Plan } from "./request-plan";
import { RunQueue } from "./run-queue";
import { SandboxRefusal } from "./script-path";
import { runSelfTest, type SelfTestState } from "./self-test-run";
import { sandboxDirPrefix } from "./temp-dirs";
import type { SandboxStatus, ScriptLimits, ScriptRequest, ScriptResult, ScriptRunner } from "./types";

export interface SandboxOptions {
  bwrapPath?: string;
  setprivPath?: string;
  prlimitPath?: string;
  /** util-linux unshare and mount, for scratch folders inside a private data home (root servers only). */
  unsharePath?: string;
  mountPath?: string;
  /** The dedicated host identity scripts run as (root servers only). In no passwd entry, not in /etc/subuid. */
  uid?: number;
  gid?: number;
  /** Server-owned folder; the sandbox keeps its synthetic /etc files and private skill copies in its
   * "sandbox" subfolder (never in the folder itself). A fresh temp dir, removed on close(), by default. */
  runtimeDir?: string;
  /** Defaults and ceiling for every run; a request can only tighten them. */
  limits?: Partial<ScriptLimits>;
  /** A run's CPU weight when something else wants the CPU too, against an ordinary process's: SCRIPT_CPU_SHARE
   * by default (scripts yield to the console). The tests of the CPU limit give a run a whole process's weight, so
   * its CPU seconds come as fast as any process's on a busy machine. */
  cpuShare?: number;
  /** Scripts running at once; the rest queue. Default 2. */
  maxConcurrent?: number;
  /** The folder holding the per-session scratch folders (e.g. <data>/scratch). Scratch folders under it
   * are always taken over (chown to the sandbox uid, 0700); elsewhere only an empty or already
   * sandbox-owned folder is, so a wrong path can never chown a real folder. */
  scratchRoot?: string;
  /** The host passes true only when an administrator set OMNIFORGE_SANDBOX=unsafe; never from a request. */
  unsafe?: boolean;
}

export const DEFAULT_SANDBOX_UID = 65533;
export const DEFAULT_SANDBOX_GID = 65533;

export class Sandbox implements ScriptRunner {
  private readonly ctx: RunnerContext;
  private readonly queue: RunQueue;
  private readonly unsafe: boolean;
  private readonly ownRuntimeDir: boolean;
  private state?: Promise<SelfTestState>;
  private readonly cleanups = new Set<Promise<unknown>>();
  private closed = false;

  constructor(options: SandboxOptions = {}) {
    const tools = {
      bwrap: options.bwrapPath ?? "/usr/bin/bwrap",
      setpriv: options.setprivPath ?? "/usr/bin/setpriv",
      prlimit: options.prlimitPath ?? "/usr/bin/prlimit",
    };
    const bindTools = { unshare: options.unsharePath ?? "/usr/bin/unshare", mount: options.mountPath ?? "/usr/bin/mount" };
    for (const [name, p] of Object.entries({ ...tools, ...bindTools })) {
      if (!path.isAbsolute(p)) throw new Error(`sandbox: ${name}Path must be absolute, got "${p}"`);
    }
    const uid = checkId(options.uid ?? DEFAULT_SANDBOX_UID, "uid");
    const gid = checkId(options.gid ?? DEFAULT_SANDBOX_GID, "gid");
    const limits = { ...DEFAULT_LIMITS, ...checkLimits(options.limits, "sandbox limits") };
    const cpuShare = options.cpuShare ?? SCRIPT_CPU_SHARE;
    if (!(cpuShare > 0 && cpuShare <= 1)) throw new Error(`sandbox: cpuShare must be above 0 and at most 1, got ${cpuShare}`);
    this.queue = new RunQueue(options.maxConcurrent ?? 2);
    this.unsafe = options.unsafe === true;
    if (options.runtimeDir !== undefined && !path.isAbsolute(options.runtimeDir)) {
      throw new Error(`sandbox: runtimeDir must be absolute, got "${options.runtimeDir}"`);
    }
    let scratchRoot: string | undefined;
    if (options.scratchRoot !== undefined) {
      if (!path.isAbsolute(options.scratchRoot) || path.resolve(/*turbopackIgnore: true*/ options.scratchRoot) === "/") {
        throw new Error(`sandbox: scratchRoot must be an absolute folder other than /, got "${options.scratchRoot}"`);
      }
      scratchRoot = path.resolve(/*turbopackIgnore: true*/ options.scratchRoot);
    }
    this.ownRuntimeDir = !options.runtimeDir;
    const runtimeDir = options.runtimeDir ? path.join(options.runtimeDir, "sandbox") : fs.mkdtempSync(sandboxDirPrefix());
    this.ctx = {
      tools,
      bindTools,
      uid,
      gid,
      root: process.getuid?.() === 0,
      runtimeDir,
      limits,
      cpuShare,
      scratchRoot,
      privateBindCheck: async () => (await this.ready()).status.checks.find((c) => c.name === "private-bind"),
      track: (p) => this.track(p),
    };
  }

  /** Runs waiting for a free slot (the UI shows them as "queued"). */
  queueLength(): number {
    return this.queue.length;
  }

  status(): Promise<SandboxStatus> {
    return this.ready().then((s) => s.status);
  }

  /** Runs the self-test again (an admin asked, or the host changed). */
  recheck(): Promise<SandboxStatus> {
    this.state = undefined;
    return this.status();
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.cleanups]);
    if (this.ownRuntimeDir) fs.rmSync(this.ctx.runtimeDir, { recursive: true, force: true });
  }

  async run(request: ScriptRequest): Promise<ScriptResult> {
    const { status } = await this.ready();
    const sandboxed = status.mode === "sandboxed" || status.mode === "sandboxed-no-cgroup";
    let plan: Plan;
    try {
      if (this.closed) throw new SandboxRefusal("The sandbox is shut down");
      if (status.mode === "unavailable") throw new SandboxRefusal(status.detail);
      plan = planRequest(request);
    } catch (err) {
      return refusal(err, sandboxed, displayOf(request));
    }
    const queuedAt = performance.now();
    const release = await this.queue.acquire(request.signal);
    if (!release) return { ...refusal(new SandboxRefusal("Cancelled before it started"), sandboxed, plan.display), cancelled: true };
    const queuedMs = Math.round(performance.now() - queuedAt);
    try {
      const result = await executePlan(this.ctx, plan, sandboxed, (await this.ready()).layout);
      return { ...result, queuedMs };
    } catch (err) {
      return refusal(err, sandboxed, plan.display);
    } finally {
      release();
    }
  }

  private ready(): Promise<SelfTestState> {
    this.state ??= runSelfTest({ ...this.ctx, unsafe: this.unsafe }).catch((err: unknown) => ({
      status: {
        mode: "unavailable" as const,
        detail: `Script execution is disabled: the sandbox self-test crashed (${(err as Error)?.message ?? String(err)}).`,
        checks: [{ name: "self-test", ok: false, detail: String(err) }],
      },
    }));
    return this.state;
  }

  private track(p: Promise<unknown>): void {
    this.cleanups.add(p);
    void p.finally(() => this.cleanups.delete(p));
  }
}

function checkId(id: number, what: string): number {
  if (!Number.isInteger(id) || id <= 0 || id >= 2 ** 32 - 1) throw new Error(`sandbox: ${what} must be a positive integer, got ${String(id)}`);
  return id;
}
