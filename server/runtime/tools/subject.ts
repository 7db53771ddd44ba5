// The two shapes the restriction check shares with the stack and the executor: the active skill and what a call
// is about. A leaf (it imports nothing), so patterns.ts and stack.ts need not import types.ts, which imports
// stack.ts: that was a type-only import circle (types -> stack -> types, types -> stack -> patterns -> types).

/**
 * What the restriction check looks at besides the tool name. A tool fills in what applies to it:
 * `bash` gives its command line, `run_script` the ways a person would type the run, file tools the path.
 */
export interface CallSubject {
  /** A shell command line; compound commands must match piece by piece. */
  commandLine?: string;
  /** Equivalent spellings of one command (run_script): any one matching is enough. */
  commandAlternatives?: string[];
  /** A file path: skill-relative when inside the top skill, else absolute. */
  path?: string;
}

/** One active skill, as the executor sees it. */
export interface ActiveSkill {
  name: string;
  layer: string;
  digest: string;
  /** Absolute skill folder (the one holding SKILL.md). */
  baseDir: string;
  /** allowed-tools patterns as written; undefined means the skill adds no restriction. */
  allowedTools?: string[];
  /** Who activated it: a run id, "user", "policy"... A finished run deactivates what it activated. */
  activatedBy?: string;
  /** When it was activated (epoch ms), for the time it was active in skill_deactivated. */
  activatedAt?: number;
  /** The git source it was served from (repository, sub-path, pinned commit), for the audit of its activation. */
  source?: { name: string; url: string; path: string; commit: string };
}
