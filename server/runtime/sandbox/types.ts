// The contract between the tools (run_script, hooks) and the sandbox that executes skill scripts.

export type SandboxMode =
  | "sandboxed" // bubblewrap + setpriv + prlimit + cgroup: every check passed
  | "sandboxed-no-cgroup" // isolation intact, no aggregate memory/pid limit
  | "unavailable" // refuse to run scripts
  | "unsafe"; // an administrator set OMNIFORGE_SANDBOX=unsafe: run without namespaces, results marked

export interface SandboxStatus {
  mode: SandboxMode;
  /** For a person: what was found, and what is missing when scripts are refused. */
  detail: string;
  checks: { name: string; ok: boolean; detail?: string }[];
}

export interface ScriptRequest {
  /** Absolute skill folder; mounted read-only at /skill. */
  skillDir: string;
  /** Path of the script relative to skillDir (e.g. "scripts/report.py"); confined to skillDir. */
  script?: string;
  /** Instead of a script: a command line run as `/usr/bin/bash -c command` in /scratch (the `bash` tool).
   * A command never sees the skill's scripts/ folder: it is covered by an empty read-only tmpfs, so no
   * spelling of a path can read a script; scripts are reached through `script` only. */
  command?: string;
  args?: string[];
  /** Absolute per-session scratch folder; mounted read-write at /scratch. */
  scratchDir: string;
  stdin?: string;
  /** Extra environment variables for the script (e.g. run_script's `env`); names [A-Za-z_][A-Za-z0-9_]*.
   * The script never gets the server's environment, only PATH, HOME, TMPDIR, LANG and these. */
  env?: Record<string, string>;
  /** A folder below the scratch folder to start in ("out/x", "/"-separated); default the scratch folder itself.
   * Must exist, and its real path must stay inside the scratch folder. */
  workdir?: string;
  /** Overrides of the default limits. */
  limits?: Partial<ScriptLimits>;
  signal?: AbortSignal;
}

export interface ScriptLimits {
  wallMs: number;
  cpuSeconds: number;
  memoryBytes: number;
  processes: number;
  outputBytes: number;
  fileBytes: number;
}

/** How a process ended, as both the capped spawn and the sandbox's script result report it. */
export interface ProcessOutcome {
  /** Exit code; 128+N when killed by signal N (bubblewrap's convention). null when it never started. */
  exitCode: number | null;
  signal?: string;
  stdout: string;
  stderr: string;
  /** stdout/stderr were cut at the output limit (the text ends with a marker). */
  truncated: boolean;
  timedOut: boolean;
  durationMs: number;
}

export interface ScriptResult extends ProcessOutcome {
  sandboxed: boolean;
  /** The argv shown to people and the audit log (interpreter + /skill path + args), never the wrapper. */
  command: string[];
  /** Set when the sandbox refused to run the script at all (mode unavailable, bad path). */
  refused?: string;
  /** The request's AbortSignal stopped the run (or it was cancelled while queued). */
  cancelled?: boolean;
  /** Time spent waiting for a free slot (the concurrency limit), in ms. */
  queuedMs?: number;
  /** Which limits the run ran into: "wall", "output", "cpu", "file", "memory", "processes". */
  limitsHit?: string[];
}

export interface ScriptRunner {
  status(): Promise<SandboxStatus>;
  run(request: ScriptRequest): Promise<ScriptResult>;
}
