// The system `git`, run the one way sources use it: a clean and fixed environment (no user or system config, so no
// hooks, credential helpers, aliases, filters or fsmonitor of anyone's), no prompts, the allowed transports only, a
// time limit for the whole process group, and the URL's password cut out of anything it says.
import { spawn } from "node:child_process";
import { SOURCE_PROTOCOLS, scrubSecrets } from "./url";

export class GitError extends Error {
  constructor(
    message: string,
    readonly code: "source.git-failed" | "source.git-timeout" | "source.git-missing",
  ) {
    super(message);
    this.name = "GitError";
  }
}

/** Settings every git call gets on its command line, above anything a repository could carry. */
const FIXED_CONFIG = [
  "core.hooksPath=/dev/null",
  "credential.helper=",
  "core.askPass=",
  "core.fsmonitor=false",
  "core.symlinks=true",
  "submodule.recurse=false",
  "fetch.recurseSubmodules=false",
  "transfer.fsckObjects=true",
  "protocol.allow=never",
  ...SOURCE_PROTOCOLS.map((p) => `protocol.${p}.allow=always`),
  "advice.detachedHead=false",
  "gc.auto=0",
  "maintenance.auto=false",
];

/**
 * What git may take from the caller's environment: PATH to find it and its helpers, the proxies a company network
 * needs, and the ssh agent's socket. Nothing else: GIT_DIR, GIT_CONFIG_PARAMETERS, GIT_SSH_COMMAND and the like
 * would change what git does.
 */
const PASSED = ["http_proxy", "https_proxy", "no_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY", "SSH_AUTH_SOCK"];

/** The environment git runs with: a fixed one, plus PASSED from the caller's. */
export function gitEnv(caller: Record<string, string | undefined>): Record<string, string> {
  const passed = Object.fromEntries(PASSED.filter((k) => caller[k]).map((k) => [k, caller[k]!]));
  return {
    ...passed,
    PATH: caller.PATH || "/usr/local/bin:/usr/bin:/bin",
    HOME: "/nonexistent",
    LC_ALL: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_ALLOW_PROTOCOL: SOURCE_PROTOCOLS.join(":"),
    GIT_SSH_COMMAND: "ssh -o BatchMode=yes",
    GIT_NO_REPLACE_OBJECTS: "1",
  };
}

export interface GitRun {
  /** Folder of the bare repository the command works on (--git-dir). */
  gitDir?: string;
  workTree?: string;
  /** Extra variables (GIT_INDEX_FILE). */
  env?: Record<string, string>;
  timeoutMs: number;
  /** The URL with its password, when the command is handed one: its secrets are cut from the messages. */
  url?: string;
  /** The caller's environment: only PATH, proxies and the ssh agent's socket are taken from it (gitEnv). */
  callerEnv?: Record<string, string | undefined>;
  /** Called with each NUL- or newline-ended record of standard output; returning false stops git. */
  onRecord?: (record: string) => boolean;
  separator?: "\0" | "\n";
}

/** Runs git; resolves with its standard output (empty when onRecord took it), rejects with a GitError. */
export function runGit(args: string[], opts: GitRun): Promise<string> {
  const argv = [...FIXED_CONFIG.flatMap((c) => ["-c", c]), ...(opts.gitDir ? [`--git-dir=${opts.gitDir}`] : []), ...(opts.workTree ? [`--work-tree=${opts.workTree}`] : []), ...args];
  const scrub = (s: string) => (opts.url ? scrubSecrets(s, opts.url) : s);
  return new Promise((resolve, reject) => {
    const env = { ...gitEnv(opts.callerEnv ?? {}), ...opts.env } as unknown as NodeJS.ProcessEnv;
    const child = spawn("git", argv, { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let out = "";
    let pending = "";
    let err = "";
    let stopped = false;
    let timedOut = false;
    const killAll = () => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killAll();
    }, opts.timeoutMs);
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      if (stopped) return;
      if (!opts.onRecord) {
        out += chunk;
        return;
      }
      pending += chunk;
      const sep = opts.separator ?? "\n";
      let i: number;
      while ((i = pending.indexOf(sep)) !== -1) {
        const rec = pending.slice(0, i);
        pending = pending.slice(i + 1);
        if (!opts.onRecord(rec)) {
          stopped = true;
          killAll();
          return;
        }
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      if (err.length < 64 * 1024) err += chunk;
    });
    child.on("error", (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new GitError(e.code === "ENOENT" ? "git is not installed (sources use the system git client)" : `git could not start: ${e.message}`, "source.git-missing"));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (timedOut) return reject(new GitError(`git ${args[0]} took longer than ${Math.round(opts.timeoutMs / 1000)} s and was stopped`, "source.git-timeout"));
      if (stopped) return resolve("");
      if (code !== 0) {
        const lines = scrub(err).split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("hint:"));
        const why = lines.find((l) => /^(fatal|error):/.test(l)) ?? lines[lines.length - 1] ?? `exit ${code}`;
        return reject(new GitError(`git ${args[0]} failed: ${why.replace(/^(fatal|error):\s*/, "")}`, "source.git-failed"));
      }
      resolve(out);
    });
  });
}
