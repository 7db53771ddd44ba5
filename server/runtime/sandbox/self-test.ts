// The startup self-test (SANDBOX.md §5.3): which binaries exist, whether we are root, whether cgroups
// can be written, and a canary run through the full chain that must prove the isolation holds.
import fs from "node:fs";
import type { SandboxMode, SandboxStatus } from "./types";

export type Check = SandboxStatus["checks"][number];

/**
 * Runs inside the sandbox as bash -c; exit 0 means every property holds. Each failure names itself
 * on stderr so the status can say what broke.
 */
export const CANARY_SCRIPT = [
  'fail() { echo "canary: $1" >&2; exit 1; }',
  '[ "$(id -u)" = 1000 ] || fail "uid inside is $(id -u), expected 1000"',
  '[ ! -e /etc/shadow ] || fail "/etc/shadow is visible"',
  '! touch /skill/.canary 2>/dev/null || fail "/skill is writable"',
  '{ touch /scratch/.canary && rm -f /scratch/.canary; } || fail "/scratch is not writable"',
  '[ "$(wc -l < /proc/net/dev)" -le 3 ] || fail "network interfaces other than loopback are visible"',
  '! unshare --user true 2>/dev/null || fail "nested user namespaces are allowed"',
  '! grep -qa SECRET /proc/1/environ || fail "the server environment leaks through /proc/1/environ"',
  '! env | grep -q SECRET || fail "the server environment leaks into the script"',
  "echo canary-ok",
].join("\n");

export function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Whether a numeric id has an entry in an /etc file (the dedicated uid should have none). */
export function idInUse(file: string, id: number): string | null {
  try {
    for (const line of fs.readFileSync(file, "utf8").split("\n")) {
      const f = line.split(":");
      if (f[2] === String(id)) return f[0] ?? "?";
    }
  } catch {
    /* no file: nobody uses it */
  }
  return null;
}

export interface ModeInput {
  checks: Check[];
  /** Names of checks whose failure means no sandbox. */
  fatal: string[];
  cgroupOk: boolean;
  root: boolean;
  unsafe: boolean;
  unsafePossible: boolean;
}

export function decideMode(input: ModeInput): { mode: SandboxMode; detail: string } {
  const failed = input.checks.filter((c) => !c.ok && input.fatal.includes(c.name));
  if (failed.length === 0) {
    if (input.cgroupOk && input.root) {
      const note = input.unsafe ? " OMNIFORGE_SANDBOX=unsafe is set but not needed: the sandbox works, so it is used." : "";
      return { mode: "sandboxed", detail: `Scripts run in the sandbox (bubblewrap, setpriv, prlimit, cgroup).${note}` };
    }
    const why = input.root ? "cgroups cannot be written" : "the server is not root, so there is no uid drop and no cgroup";
    return {
      mode: "sandboxed-no-cgroup",
      detail: `Scripts run in the sandbox, but ${why}: memory and processes are limited per process only (tighter limits apply).`,
    };
  }
  const reason = failed.map((c) => `${c.name}: ${c.detail ?? "failed"}`).join("; ");
  if (input.unsafe && input.unsafePossible) {
    return {
      mode: "unsafe",
      detail: `WARNING: scripts run WITHOUT isolation because an administrator set OMNIFORGE_SANDBOX=unsafe (${reason}). They can read world-readable files, write world-writable folders, use the network and see host processes; only the clean environment, the uid drop, rlimits, the timeout and the output cap apply.`,
    };
  }
  return {
    mode: "unavailable",
    detail:
      `Script execution is disabled: no sandbox is available on this host (${reason}). ${remedy(failed)}, ` +
      "or have an administrator set OMNIFORGE_SANDBOX=unsafe to run scripts WITHOUT isolation.",
  };
}

/** What to do about the fatal checks that failed: the advice for the first of them in the order they run. */
function remedy(failed: Check[]): string {
  const names = new Set(failed.map((c) => c.name));
  if (names.has("binaries")) return "Install bubblewrap (apt-get install bubblewrap)";
  // The runtime folder goes in the system temp folder, or /tmp when that one is private (temp-dirs.ts): this fails
  // when neither is open to the sandbox user, or when the folder given as runtimeDir is private.
  if (names.has("runtime")) return "Give the server a temporary folder other users can search (TMPDIR; /tmp is)";
  if (names.has("canary")) return "Allow unprivileged user namespaces and check bubblewrap";
  return "Fix what failed";
}
