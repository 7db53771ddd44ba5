// Running the startup self-test (SANDBOX.md §5.3) for one Sandbox: each check in turn, then the canary through
// the full chain; self-test.ts holds the pure parts (the canary script, the mode decision).
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { privateBindArgs, SANDBOX_ENV_PATH, SYNTHETIC_GROUP, SYNTHETIC_PASSWD, type ToolPaths } from "./command-line";
import { createRunCgroup, detectCgroups, removeRunCgroup, sweepStaleCgroups, type CgroupLayout } from "./cgroup";
import { executePlan, type RunnerContext } from "./execute";
import { CANARY_SCRIPT, decideMode, executable, idInUse, type Check } from "./self-test";
import { blockedAncestor } from "./skill-access";
import type { SandboxStatus } from "./types";
import { plantEnvSecret } from "../../../env";

export interface SelfTestState {
  status: SandboxStatus;
  layout?: CgroupLayout;
}

export async function runSelfTest(ctx: RunnerContext & { unsafe: boolean }): Promise<SelfTestState> {
  const checks: Check[] = [];
  const fatal: string[] = [];
  const add = (name: string, ok: boolean, detail: string | undefined, isFatal: boolean) => {
    checks.push(detail === undefined ? { name, ok } : { name, ok, detail });
    if (isFatal) fatal.push(name);
  };

  const missing = (Object.entries(ctx.tools) as [keyof ToolPaths, string][])
    .filter(([name]) => name !== "setpriv" || ctx.root)
    .filter(([, p]) => !executable(p))
    .map(([name, p]) => `${name} not found at ${p}`);
  add("binaries", missing.length === 0, missing.length ? missing.join(", ") : "bwrap, setpriv and prlimit present", true);
  const interps = ["/usr/bin/python3", "/usr/bin/bash", "/usr/bin/node"];
  const noInterp = interps.filter((p) => !executable(p));
  add("interpreters", noInterp.length === 0, noInterp.length ? `missing: ${noInterp.join(", ")}` : interps.join(", "), false);
  add("root", ctx.root, ctx.root ? "running as root" : "not root: scripts keep the server's uid and get no cgroup", false);
  if (ctx.root) {
    const user = idInUse("/etc/passwd", ctx.uid);
    const group = idInUse("/etc/group", ctx.gid);
    const clash = [user && `uid ${ctx.uid} belongs to ${user}`, group && `gid ${ctx.gid} belongs to ${group}`].filter(Boolean);
    add(
      "identity",
      clash.length === 0,
      clash.length ? `${clash.join(", ")}; configure a dedicated id` : `scripts run as ${ctx.uid}:${ctx.gid}`,
      false,
    );
  }

  try {
    fs.mkdirSync(ctx.runtimeDir, { recursive: true, mode: 0o755 });
    fs.chmodSync(ctx.runtimeDir, 0o755);
    for (const [name, text] of [["passwd", SYNTHETIC_PASSWD], ["group", SYNTHETIC_GROUP]] as const) {
      const file = path.join(/*turbopackIgnore: true*/ ctx.runtimeDir, name);
      fs.rmSync(file, { force: true }); // never write through a link left in place of the file
      fs.writeFileSync(file, text, { mode: 0o644, flag: "wx" });
    }
    const blocked = ctx.root ? blockedAncestor(ctx.runtimeDir, ctx.uid, ctx.gid) : null;
    if (blocked) add("runtime", false, `the sandbox user cannot reach ${ctx.runtimeDir}: ${blocked} is not searchable`, true);
    else add("runtime", true, ctx.runtimeDir, true);
  } catch (err) {
    add("runtime", false, `cannot prepare ${ctx.runtimeDir}: ${(err as Error).message}`, true);
  }

  if (ctx.root) {
    const probe = probePrivateBind(ctx);
    add("private-bind", probe.ok, probe.detail, false);
  }

  let layout: CgroupLayout | undefined;
  if (ctx.root) {
    const found = detectCgroups();
    if ("error" in found) add("cgroups", false, found.error, false);
    else {
      try {
        sweepStaleCgroups(found.layout);
        const probe = createRunCgroup(found.layout, `sbx-${process.pid}-selftest-${crypto.randomUUID().slice(0, 8)}`, ctx.limits);
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
    const result = await canary(ctx, layout);
    add("canary", result.ok, result.detail, true);
  }
  const decided = decideMode({
    checks,
    fatal,
    cgroupOk: layout !== undefined,
    root: ctx.root,
    unsafe: ctx.unsafe,
    unsafePossible: executable(ctx.tools.prlimit) && (!ctx.root || executable(ctx.tools.setpriv)),
  });
  const status: SandboxStatus = { mode: decided.mode, detail: decided.detail, checks };
  if (decided.mode === "unsafe" || decided.mode === "sandboxed-no-cgroup") console.warn(`[sandbox] ${decided.detail}`);
  return { status, layout: decided.mode === "unavailable" ? undefined : layout };
}

/** Whether root can bind a folder in a mount namespace of its own (needed for scratch in a private home). */
function probePrivateBind(ctx: RunnerContext): { ok: boolean; detail: string } {
  const dir = path.join(ctx.runtimeDir, `bind-probe-${process.pid}`);
  try {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(path.join(dir, "src"), { recursive: true, mode: 0o700 });
    fs.mkdirSync(path.join(dir, "dst"), { mode: 0o755 });
    fs.writeFileSync(path.join(dir, "src", "marker"), "");
    const dst = path.join(dir, "dst");
    const argv = [...privateBindArgs(ctx.bindTools, [{ source: path.join(dir, "src"), mountPoint: dst }]), "/bin/sh", "-c", 'test -e "$1/marker"', "probe", dst];
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
async function canary(ctx: RunnerContext, layout: CgroupLayout | undefined): Promise<{ ok: boolean; detail: string }> {
  const dir = path.join(ctx.runtimeDir, "canary");
  const skill = path.join(dir, "skill");
  const scratch = path.join(dir, "scratch");
  const key = "OMNIFORGE_SANDBOX_CANARY_SECRET";
  const restore = plantEnvSecret(key, `SECRET-${crypto.randomUUID()}`);
  try {
    fs.mkdirSync(path.join(skill, "scripts"), { recursive: true });
    fs.chmodSync(dir, 0o755);
    fs.chmodSync(skill, 0o755);
    const res = await executePlan(
      ctx,
      {
        inner: ["/usr/bin/bash", "-c", CANARY_SCRIPT],
        unsafeInner: [],
        display: ["canary"],
        skillDir: skill,
        // Covered as every command run covers it, so a bubblewrap that cannot do that fails here, not per run.
        hidden: ["scripts"],
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
    restore();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
