// Builds the wrapper argv of SANDBOX.md §5.2: [cgroup join sh] → [private bind] → setpriv → bwrap → prlimit →
// interpreter.
import type { ScriptLimits } from "./types";

export interface ToolPaths {
  bwrap: string;
  setpriv: string;
  prlimit: string;
}

/** util-linux tools for the private bind of a scratch folder the sandbox user cannot reach by its path. */
export interface BindTools {
  unshare: string;
  mount: string;
}

/**
 * Root, before the uid drop: a mount namespace of this run's own (nothing shows on the host, and it ends with
 * the run), where each folder (the scratch folder, the skill folder) is bound onto an empty folder the sandbox
 * user can reach. bwrap then binds those, so the data home holding them can stay private (0700): the sandbox
 * user never walks its path. Every step execs, so the server's child is still the outer bwrap (§4.7).
 */
export function privateBindArgs(tools: BindTools, binds: readonly { source: string; mountPoint: string }[]): string[] {
  return [
    tools.unshare,
    "--mount",
    "--propagation",
    "private",
    "--",
    "/bin/sh",
    "-c",
    'mount="$1"; n="$2"; shift 2; while [ "$n" -gt 0 ]; do "$mount" --bind "$1" "$2" || exit 125; shift 2; n=$((n - 1)); done; exec "$@"',
    "omniforge-bind",
    tools.mount,
    String(binds.length),
    ...binds.flatMap((b) => [b.source, b.mountPoint]),
  ];
}

/** Inside the sandbox the script always sees this identity (the synthetic /etc/passwd names it). */
export const SANDBOX_UID = 1000;
export const SANDBOX_GID = 1000;
export const SANDBOX_ENV_PATH = "/usr/bin:/bin";
const TMP_BYTES = 64 * 1024 * 1024;
const OPEN_FILES = 256;

export function prlimitArgs(prlimit: string, limits: ScriptLimits): string[] {
  return [
    prlimit,
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`, // SIGXCPU, then SIGKILL a second later
    `--data=${limits.memoryBytes}`, // never --as: it breaks node (SANDBOX.md, section 4.2)
    `--nproc=${limits.processes}`, // inside bwrap, so bwrap's own fork is not counted (SANDBOX.md, section 4.4)
    `--fsize=${limits.fileBytes}`,
    `--nofile=${OPEN_FILES}`,
    "--core=0",
    "--",
  ];
}

export function setprivArgs(setpriv: string, uid: number, gid: number): string[] {
  return [
    setpriv,
    `--reuid=${uid}`,
    `--regid=${gid}`,
    "--clear-groups",
    "--no-new-privs",
    "--inh-caps=-all",
    "--bounding-set=-all",
    "--",
  ];
}

export interface BwrapMounts {
  runtimeDir: string;
  skillDir: string;
  scratchDir: string;
  /** The request's own variables, set after --clearenv. */
  env?: Record<string, string>;
  /** Start folder relative to /scratch (checked by the request plan). */
  workdir?: string;
  /** Folders of the skill (relative, e.g. "scripts") covered by an empty read-only tmpfs for this run. */
  hidden?: string[];
}

export function bwrapArgs(bwrap: string, m: BwrapMounts): string[] {
  return [
    bwrap,
    "--die-with-parent",
    "--new-session",
    "--unshare-all",
    "--unshare-user",
    "--disable-userns",
    "--assert-userns-disabled",
    "--uid", String(SANDBOX_UID),
    "--gid", String(SANDBOX_GID),
    "--hostname", "sandbox",
    "--clearenv",
    "--setenv", "PATH", SANDBOX_ENV_PATH,
    "--setenv", "HOME", "/scratch",
    "--setenv", "TMPDIR", "/tmp",
    "--setenv", "LANG", "C.UTF-8",
    ...Object.entries(m.env ?? {}).flatMap(([k, v]) => ["--setenv", k, v]),
    "--ro-bind", "/usr", "/usr",
    "--symlink", "usr/bin", "/bin",
    "--symlink", "usr/lib", "/lib",
    "--symlink", "usr/lib64", "/lib64",
    "--symlink", "usr/sbin", "/sbin",
    "--ro-bind", `${m.runtimeDir}/passwd`, "/etc/passwd",
    "--ro-bind", `${m.runtimeDir}/group`, "/etc/group",
    "--proc", "/proc",
    "--dev", "/dev",
    "--size", String(TMP_BYTES), "--tmpfs", "/tmp",
    "--ro-bind", m.skillDir, "/skill",
    ...(m.hidden ?? []).flatMap((rel) => ["--perms", "0555", "--size", "4096", "--tmpfs", `/skill/${rel}`, "--remount-ro", `/skill/${rel}`]),
    "--bind", m.scratchDir, "/scratch",
    "--chdir", m.workdir ? `/scratch/${m.workdir}` : "/scratch",
    "--",
  ];
}

export const SYNTHETIC_PASSWD = `sandbox:x:${SANDBOX_UID}:${SANDBOX_GID}:sandbox:/scratch:/usr/sbin/nologin\n`;
export const SYNTHETIC_GROUP = `sandbox:x:${SANDBOX_GID}:\n`;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_ENV_ENTRIES = 64;
const MAX_ENV_BYTES = 64 * 1024;

/** Checks a request's env; returns a message for a person when it is not acceptable. */
export function envProblem(env: unknown): string | null {
  if (env === undefined) return null;
  if (!env || typeof env !== "object" || Array.isArray(env)) return "env must be an object of strings";
  const entries = Object.entries(env as Record<string, unknown>);
  if (entries.length > MAX_ENV_ENTRIES) return `env has more than ${MAX_ENV_ENTRIES} variables`;
  let bytes = 0;
  for (const [k, v] of entries) {
    if (!ENV_NAME.test(k)) return `env variable name "${k}" is not allowed (letters, digits and _ only)`;
    if (typeof v !== "string" || v.includes("\0")) return `env variable ${k} must be a string without NUL bytes`;
    bytes += k.length + v.length;
  }
  return bytes > MAX_ENV_BYTES ? `env is larger than ${MAX_ENV_BYTES} bytes` : null;
}
