// The ScriptRunner: validates a request, waits for a slot, prepares scratch and cgroups, and runs
// the SANDBOX.md §5.2 chain. Mode and self-test are computed once and cached.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import {
  type BindTools,
  bwrapArgs,
  privateBindArgs,
  prlimitArgs,
  SANDBOX_ENV_PATH,
  envProblem,
  setprivArgs,
  SYNTHETIC_GROUP,
  SYNTHETIC_PASSWD,
  type ToolPaths,
} from "./command-line";
import {
  cgroupEvents,
  createRunCgroup,
  detectCgroups,
  joinPrefix,
  removeRunCgroup,
  sweepStaleCgroups,
  type CgroupLayout,
  type RunCgroup,
} from "./cgroup";
import { checkLimits, DEFAULT_LIMITS, effectiveLimits } from "./limits";
import { RunQueue } from "./run-queue";
import { interpreterFor, realSkillDir, resolveScript, SandboxRefusal } from "./script-path";
import { CANARY_SCRIPT, decideMode, executable, idInUse, type Check } from "./self-test";
import { blockedAncestor, readableCopy, unreadableEntry } from "./skill-access";
import { runCapped } from "./spawn-capped";
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
const MAX_ARGS = 1000;
let runCounter = 0;
const MAX_TEXT = 1024 * 1024;

interface State {
  status: SandboxStatus;
  layout?: CgroupLayout;
}

interface Plan {
  inner: string[]; // argv as the sandbox sees it
  unsafeInner: string[]; // argv with host paths, for unsafe mode
  display: string[];
  skillDir: string;
  scratchDir: string;
  stdin?: string;
  env?: Record<string, string>;
  limits: Partial<ScriptLimits> | undefined;
  signal?: AbortSignal;
}

export class Sandbox implements ScriptRunner {
  private readonly tools: ToolPaths;
  private readonly bindTools: BindTools;
  private readonly uid: number;
  private readonly gid: number;
  private readonly limits: ScriptLimits;
  private readonly queue: RunQueue;
  private readonly unsafe: boolean;
  private readonly root = process.getuid?.() === 0;
  private readonly ownRuntimeDir: boolean;
  private readonly runtimeDir: string;
  private readonly scratchRoot?: string;
  private state?: Promise<State>;
  private readonly cleanups = new Set<Promise<unknown>>();
  private closed = false;

  constructor(options: SandboxOptions = {}) {
    this.tools = {
      bwrap: options.bwrapPath ?? "/usr/bin/bwrap",
      setpriv: options.setprivPath ?? "/usr/bin/setpriv",
      prlimit: options.prlimitPath ?? "/usr/bin/prlimit",
    };
    this.bindTools = { unshare: options.unsharePath ?? "/usr/bin/unshare", mount: options.mountPath ?? "/usr/bin/mount" };
    for (const [name, p] of Object.entries({ ...this.tools, ...this.bindTools })) {
      if (!path.isAbsolute(p)) throw new Error(`sandbox: ${name}Path must be absolute, got "${p}"`);
    }
    this.uid = checkId(options.uid ?? DEFAULT_SANDBOX_UID, "uid");
    this.gid = checkId(options.gid ?? DEFAULT_SANDBOX_GID, "gid");
    this.limits = { ...DEFAULT_LIMITS, ...checkLimits(options.limits, "sandbox limits") };
    this.queue = new RunQueue(options.maxConcurrent ?? 2);
    this.unsafe = options.unsafe === true;
    if (options.runtimeDir !== undefined && !path.isAbsolute(options.runtimeDir)) {
      throw new Error(`sandbox: runtimeDir must be absolute, got "${options.runtimeDir}"`);
    }
    if (options.scratchRoot !== undefined) {
      if (!path.isAbsolute(options.scratchRoot) || path.resolve(/*turbopackIgnore: true*/ options.scratchRoot) === "/") {
        throw new Error(`sandbox: scratchRoot must be an absolute folder other than /, got "${options.scratchRoot}"`);
      }
      this.scratchRoot = path.resolve(/*turbopackIgnore: true*/ options.scratchRoot);
    }
    this.ownRuntimeDir = !options.runtimeDir;
    this.runtimeDir = options.runtimeDir
      ? path.join(options.runtimeDir, "sandbox")
      : fs.mkdtempSync(sandboxDirPrefix());
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
    if (this.ownRuntimeDir) fs.rmSync(this.runtimeDir, { recursive: true, force: true });
  }

  async run(request: ScriptRequest): Promise<ScriptResult> {
    const { status } = await this.ready();
    const sandboxed = status.mode === "sandboxed" || status.mode === "sandboxed-no-cgroup";
    let plan: Plan;
    try {
      if (this.closed) throw new SandboxRefusal("The sandbox is shut down");
      if (status.mode === "unavailable") throw new SandboxRefusal(status.detail);
      plan = this.plan(request);
    } catch (err) {
      return refusal(err, sandboxed, displayOf(request));
    }
    const queuedAt = performance.now();
    const release = await this.queue.acquire(request.signal);
    if (!release) return { ...refusal(new SandboxRefusal("Cancelled before it started"), sandboxed, plan.display), cancelled: true };
    const queuedMs = Math.round(performance.now() - queuedAt);
    try {
      const result = await this.execute(plan, sandboxed, (await this.ready()).layout);
      return { ...result, queuedMs };
    } catch (err) {
      return refusal(err, sandboxed, plan.display);
    } finally {
      release();
    }
  }

  private ready(): Promise<State> {
    this.state ??= this.selfTest().catch((err: unknown) => ({
      status: {
        mode: "unavailable" as const,
        detail: `Script execution is disabled: the sandbox self-test crashed (${(err as Error)?.message ?? String(err)}).`,
        checks: [{ name: "self-test", ok: false, detail: String(err) }],
      },
    }));
    return this.state;
  }

  /** Validates the request and works out what to run; throws SandboxRefusal before anything starts. */
  private plan(req: ScriptRequest): Plan {
    if (!req || typeof req !== "object") throw new SandboxRefusal("Empty script request");
    const args = req.args ?? [];
    if (!Array.isArray(args) || args.length > MAX_ARGS || args.some((a) => typeof a !== "string" || a.includes("\0"))) {
      throw new SandboxRefusal(`Script arguments must be at most ${MAX_ARGS} strings without NUL bytes`);
    }
    if (req.stdin !== undefined && (typeof req.stdin !== "string" || req.stdin.length > MAX_TEXT)) {
      throw new SandboxRefusal("stdin must be a string of at most 1 MiB");
    }
    if (typeof req.scratchDir !== "string" || !path.isAbsolute(req.scratchDir)) {
      throw new SandboxRefusal(`The scratch folder must be an absolute path, got "${String(req.scratchDir)}"`);
    }
    checkLimits(req.limits, "script limits");
    const badEnv = envProblem(req.env);
    if (badEnv) throw new SandboxRefusal(badEnv);
    const base = { scratchDir: req.scratchDir, stdin: req.stdin, env: req.env, limits: req.limits, signal: req.signal };
    if (req.script !== undefined && req.command !== undefined) throw new SandboxRefusal("Give either a script or a command, not both");
    if (req.command !== undefined) {
      if (typeof req.command !== "string" || req.command.trim() === "" || req.command.includes("\0") || req.command.length > MAX_TEXT) {
        throw new SandboxRefusal("The command must be a non-empty string without NUL bytes");
      }
      const skillDir = realSkillDir(req.skillDir);
      const inner = ["/usr/bin/bash", "-c", req.command, "bash", ...args];
      return { ...base, skillDir, inner, unsafeInner: inner, display: ["/usr/bin/bash", "-c", req.command, ...args] };
    }
    if (req.script === undefined) throw new SandboxRefusal("Give a script path or a command to run");
    const script = resolveScript(req.skillDir, req.script);
    const inside = `/skill/${script.relative}`;
    const interp = interpreterFor(script.file, req.script);
    if (interp[0] && !executable(interp[0])) {
      throw new SandboxRefusal(`The interpreter ${interp[0]} for ${req.script} is not installed on this host`);
    }
    return {
      ...base,
      skillDir: script.skillDir,
      inner: [...interp, inside, ...args],
      unsafeInner: [...interp, script.file, ...args],
      display: [...interp, inside, ...args],
    };
  }

  private async execute(plan: Plan, sandboxed: boolean, layout: CgroupLayout | undefined): Promise<ScriptResult> {
    const id = ++runCounter; // per process, not per instance: two runners must never share a cgroup name
    const limits = effectiveLimits(this.limits, plan.limits, layout !== undefined);
    const scratchBlocked = this.prepareScratch(plan.scratchDir);
    // A scratch folder in a private data home (0700, as ~/.omniforge is): root binds it, in a mount namespace
    // of this run, onto an empty folder the sandbox user can reach; the home's modes stay as they are.
    let scratchBind = plan.scratchDir;
    let mountPoint: string | undefined;
    if (scratchBlocked) {
      if (!sandboxed) {
        throw new SandboxRefusal(`The scratch folder ${plan.scratchDir} is inside ${scratchBlocked}, which the script's user cannot enter (unsafe mode has no bind mounts)`);
      }
      const bind = (await this.ready()).status.checks.find((c) => c.name === "private-bind");
      if (!bind?.ok) {
        throw new SandboxRefusal(
          `The sandbox user cannot reach the scratch folder: ${scratchBlocked} is private and this host cannot bind it privately (${bind?.detail ?? "not checked"}); ` +
            `make it searchable (chmod o+x ${scratchBlocked}) or keep the data home where mount namespaces work`,
        );
      }
      mountPoint = path.join(this.runtimeDir, "mnt", `run-${process.pid}-${id}`);
      fs.mkdirSync(path.dirname(mountPoint), { recursive: true, mode: 0o755 });
      fs.mkdirSync(mountPoint, { mode: 0o755 });
      scratchBind = mountPoint;
    }

    let skillBind = plan.skillDir;
    let copy: string | undefined;
    if (sandboxed && this.root) {
      const bad = unreadableEntry(plan.skillDir, this.uid, this.gid);
      if (bad) {
        copy = path.join(this.runtimeDir, "copies", `run-${process.pid}-${id}`);
        fs.mkdirSync(path.dirname(copy), { recursive: true, mode: 0o755 });
        readableCopy(plan.skillDir, copy);
        skillBind = copy;
      }
    }

    let cg: RunCgroup | undefined;
    if (layout) cg = createRunCgroup(layout, `sbx-${process.pid}-${id}-${crypto.randomBytes(3).toString("hex")}`, limits);
    try {
      const prefix = [
        ...(cg ? joinPrefix(cg) : []),
        ...(mountPoint ? privateBindArgs(this.bindTools, plan.scratchDir, mountPoint) : []),
        ...(this.root ? setprivArgs(this.tools.setpriv, this.uid, this.gid) : []),
      ];
      const argv = sandboxed
        ? [
            ...prefix,
            ...bwrapArgs(this.tools.bwrap, { runtimeDir: this.runtimeDir, skillDir: skillBind, scratchDir: scratchBind, env: plan.env }),
            ...prlimitArgs(this.tools.prlimit, limits),
            ...plan.inner,
          ]
        : [
            ...prefix,
            ...prlimitArgs(this.tools.prlimit, limits),
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
        // Never process.env: bwrap's PID 1 keeps its env, readable via /proc/1/environ (§4.1).
        env: { PATH: SANDBOX_ENV_PATH },
        cwd: sandboxed ? "/" : plan.scratchDir,
        stdin: plan.stdin,
        wallMs: limits.wallMs,
        outputBytes: limits.outputBytes,
        signal: plan.signal,
        killGroup: !sandboxed,
      });
      if (raw.spawnError) throw new SandboxRefusal(raw.spawnError);
      if (mountPoint && raw.exitCode === 125 && raw.stdout === "" && /mount/i.test(raw.stderr)) {
        throw new SandboxRefusal(`The scratch folder could not be bound for the sandbox user: ${raw.stderr.trim().split("\n").slice(-1)[0]}`);
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
      if (cg) this.track(removeRunCgroup(cg));
      if (copy) fs.rmSync(copy, { recursive: true, force: true });
      // The bind lived in the run's own mount namespace: on the host this is an empty folder.
      // rmdir, never a recursive delete: should a bind ever show on the host, this fails instead of emptying scratch.
      if (mountPoint) fs.rmdirSync(mountPoint);
    }
  }

  private track(p: Promise<unknown>): void {
    this.cleanups.add(p);
    void p.finally(() => this.cleanups.delete(p));
  }

  /**
   * Scratch belongs to the sandbox uid, 0700, and is never a symlink (the sandbox could have planted
   * one). An existing folder is taken over only when it is empty or already the sandbox's, so a wrong
   * path from a caller can never chown a real folder. Returns the first folder above it the sandbox user
   * cannot enter (a private data home), or null.
   */
  private prepareScratch(dir: string): string | null {
    if (path.resolve(dir) === "/" || path.resolve(dir) !== dir.replace(/\/+$/, "")) {
      throw new SandboxRefusal(`The scratch folder must be a normalized absolute path other than /, got "${dir}"`);
    }
    let st: fs.Stats | undefined;
    try {
      st = fs.lstatSync(dir);
    } catch {
      fs.mkdirSync(path.dirname(dir), { recursive: true, mode: 0o755 });
      fs.mkdirSync(dir, { mode: 0o700 });
      st = fs.lstatSync(dir);
    }
    if (st.isSymbolicLink() || !st.isDirectory()) throw new SandboxRefusal(`The scratch folder ${dir} is not a plain directory`);
    const mine = this.root ? st.uid === this.uid : true;
    const underRoot = this.scratchRoot !== undefined && dir.startsWith(this.scratchRoot + path.sep);
    if (!mine && !underRoot && fs.readdirSync(dir).length > 0) {
      throw new SandboxRefusal(
        `The scratch folder ${dir} is not empty and does not belong to the sandbox user; refusing to take it over ` +
          "(create it empty, chown it to the sandbox uid, or configure the sandbox's scratchRoot)",
      );
    }
    if (this.root && !mine) fs.chownSync(dir, this.uid, this.gid);
    fs.chmodSync(dir, 0o700);
    return this.root ? blockedAncestor(dir, this.uid, this.gid) : null;
  }

  private async selfTest(): Promise<State> {
    const checks: Check[] = [];
    const fatal: string[] = [];
    const add = (name: string, ok: boolean, detail: string | undefined, isFatal: boolean) => {
      checks.push(detail === undefined ? { name, ok } : { name, ok, detail });
      if (isFatal) fatal.push(name);
    };

    const missing = (Object.entries(this.tools) as [keyof ToolPaths, string][])
      .filter(([name]) => name !== "setpriv" || this.root)
      .filter(([, p]) => !executable(p))
      .map(([name, p]) => `${name} not found at ${p}`);
    add("binaries", missing.length === 0, missing.length ? missing.join(", ") : "bwrap, setpriv and prlimit present", true);
    const interps = ["/usr/bin/python3", "/usr/bin/bash", "/usr/bin/node"];
    const noInterp = interps.filter((p) => !executable(p));
    add("interpreters", noInterp.length === 0, noInterp.length ? `missing: ${noInterp.join(", ")}` : interps.join(", "), false);
    add("root", this.root, this.root ? "running as root" : "not root: scripts keep the server's uid and get no cgroup", false);
    if (this.root) {
      const user = idInUse("/etc/passwd", this.uid);
      const group = idInUse("/etc/group", this.gid);
      const clash = [user && `uid ${this.uid} belongs to ${user}`, group && `gid ${this.gid} belongs to ${group}`].filter(Boolean);
      add(
        "identity",
        clash.length === 0,
        clash.length ? `${clash.join(", ")}; configure a dedicated id` : `scripts run as ${this.uid}:${this.gid}`,
        false,
      );
    }

    try {
      fs.mkdirSync(this.runtimeDir, { recursive: true, mode: 0o755 });
      fs.chmodSync(this.runtimeDir, 0o755);
      for (const [name, text] of [["passwd", SYNTHETIC_PASSWD], ["group", SYNTHETIC_GROUP]] as const) {
        const file = path.join(/*turbopackIgnore: true*/ this.runtimeDir, name);
        fs.rmSync(file, { force: true }); // never write through a link left in place of the file
        fs.writeFileSync(file, text, { mode: 0o644, flag: "wx" });
      }
      const blocked = this.root ? blockedAncestor(this.runtimeDir, this.uid, this.gid) : null;
      if (blocked) add("runtime", false, `the sandbox user cannot reach ${this.runtimeDir}: ${blocked} is not searchable`, true);
      else add("runtime", true, this.runtimeDir, true);
    } catch (err) {
      add("runtime", false, `cannot prepare ${this.runtimeDir}: ${(err as Error).message}`, true);
    }

    if (this.root) {
      const probe = this.probePrivateBind();
      add("private-bind", probe.ok, probe.detail, false);
    }

    let layout: CgroupLayout | undefined;
    if (this.root) {
      const found = detectCgroups();
      if ("error" in found) add("cgroups", false, found.error, false);
      else {
        try {
          sweepStaleCgroups(found.layout);
          const probe = createRunCgroup(found.layout, `sbx-${process.pid}-selftest-${crypto.randomUUID().slice(0, 8)}`, this.limits);
          await removeRunCgroup(probe, { tries: 20, delayMs: 20 });
          layout = found.layout;
          const where = "unified" in layout.parents ? layout.parents.unified : layout.parents.memory;
          add("cgroups", true, `v${layout.version} (memory under ${where}${layout.memsw ? ", with swap limit" : ""})`, false);
        } catch (err) {
          add("cgroups", false, `cannot create a cgroup: ${(err as Error).message}`, false);
        }
      }
    } else {
      add("cgroups", false, "needs root", false);
    }

    const prelimOk = checks.every((c) => c.ok || !fatal.includes(c.name));
    if (prelimOk) {
      const canary = await this.canary(layout);
      add("canary", canary.ok, canary.detail, true);
    }
    const decided = decideMode({
      checks,
      fatal,
      cgroupOk: layout !== undefined,
      root: this.root,
      unsafe: this.unsafe,
      unsafePossible: executable(this.tools.prlimit) && (!this.root || executable(this.tools.setpriv)),
    });
    const status: SandboxStatus = { mode: decided.mode, detail: decided.detail, checks };
    if (decided.mode === "unsafe" || decided.mode === "sandboxed-no-cgroup") console.warn(`[sandbox] ${decided.detail}`);
    return { status, layout: decided.mode === "unavailable" ? undefined : layout };
  }

  /** Whether root can bind a folder in a mount namespace of its own (needed for scratch in a private home). */
  private probePrivateBind(): { ok: boolean; detail: string } {
    const dir = path.join(this.runtimeDir, `bind-probe-${process.pid}`);
    try {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(path.join(dir, "src"), { recursive: true, mode: 0o700 });
      fs.mkdirSync(path.join(dir, "dst"), { mode: 0o755 });
      fs.writeFileSync(path.join(dir, "src", "marker"), "");
      const dst = path.join(dir, "dst");
      const argv = [...privateBindArgs(this.bindTools, path.join(dir, "src"), dst), "/bin/sh", "-c", 'test -e "$1/marker"', "probe", dst];
      const r = spawnSync(argv[0]!, argv.slice(1), { env: { PATH: SANDBOX_ENV_PATH } as Record<string, string> as NodeJS.ProcessEnv, encoding: "utf8", timeout: 10_000 });
      const leaked = fs.existsSync(path.join(dst, "marker"));
      if (r.status === 0 && !leaked) return { ok: true, detail: "scratch folders in a private data home are bound for each run" };
      return { ok: false, detail: leaked ? "the bind showed on the host" : (r.error?.message ?? (r.stderr.trim() || `exit ${r.status}`)) };
    } catch (err) {
      return { ok: false, detail: (err as Error).message };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  /** The full chain with a fake secret in the server's env, which must not reach the sandbox. */
  private async canary(layout: CgroupLayout | undefined): Promise<{ ok: boolean; detail: string }> {
    const dir = path.join(this.runtimeDir, "canary");
    const skill = path.join(dir, "skill");
    const scratch = path.join(dir, "scratch");
    const key = "OMNIFORGE_SANDBOX_CANARY_SECRET";
    const before = process.env[key];
    process.env[key] = `SECRET-${crypto.randomUUID()}`;
    try {
      fs.mkdirSync(skill, { recursive: true });
      fs.chmodSync(dir, 0o755);
      fs.chmodSync(skill, 0o755);
      const res = await this.execute(
        {
          inner: ["/usr/bin/bash", "-c", CANARY_SCRIPT],
          unsafeInner: [],
          display: ["canary"],
          skillDir: skill,
          scratchDir: scratch,
          limits: { wallMs: 10_000 },
        },
        true,
        layout,
      );
      const ok = res.exitCode === 0 && res.stdout.includes("canary-ok");
      const why = (res.stderr.trim() || res.stdout.trim() || `exit ${res.exitCode}`).split("\n").slice(-3).join(" ");
      return { ok, detail: ok ? `isolation verified in ${res.durationMs} ms` : why };
    } catch (err) {
      return { ok: false, detail: (err as Error).message };
    } finally {
      if (before === undefined) delete process.env[key];
      else process.env[key] = before;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}

function checkId(id: number, what: string): number {
  if (!Number.isInteger(id) || id <= 0 || id >= 2 ** 32 - 1) throw new Error(`sandbox: ${what} must be a positive integer, got ${String(id)}`);
  return id;
}

function displayOf(req: ScriptRequest | undefined): string[] {
  if (!req) return [];
  if (typeof req.command === "string") return ["/usr/bin/bash", "-c", req.command];
  return typeof req.script === "string" ? [req.script, ...(Array.isArray(req.args) ? req.args.map(String) : [])] : [];
}

function refusal(err: unknown, sandboxed: boolean, command: string[]): ScriptResult {
  const message = err instanceof SandboxRefusal ? err.message : `The script could not be run: ${(err as Error)?.message ?? String(err)}`;
  return {
    exitCode: null,
    stdout: "",
    stderr: "",
    truncated: false,
    timedOut: false,
    durationMs: 0,
    sandboxed,
    command,
    refused: message,
  };
}
