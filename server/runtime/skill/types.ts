// The contract of the skill module: what a parsed and validated SKILL.md looks like to the rest of the runtime.
// The registry, the tools and the console only use these types and the functions exported from ./index.ts.

export type Severity = "error" | "warning" | "info";

/** `spec` is agentskills.io exactly; `omniforge` is the spec plus our extension fields (DESIGN.md). */
export type RuleSet = "spec" | "omniforge";

/**
 * Whether a path relative to the skill folder (confined, "/"-separated) is a file the skill can use: true, false
 * (missing), "outside" (a symbolic link on the way leaves the skill folder, by real path) or "unreadable" (a folder
 * on the way cannot be searched). A plain boolean answer is enough for sources that know only existence.
 */
export type FileLookup = (relPath: string) => boolean | "outside" | "unreadable";

export interface Diagnostic {
  severity: Severity;
  /** Stable identifier, e.g. "name.pattern" or "frontmatter.unclosed". Never reworded once shipped. */
  code: string;
  /** What is wrong and what to do about it, for a person. */
  message: string;
  /** 1-based position in SKILL.md; file-level problems point at 1:1. */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface SkillScope {
  agents?: string[];
  tenants?: string[];
  environments?: string[];
}

/** Normalised frontmatter. Only fields that were present and well-typed are set. */
export interface SkillProperties {
  name: string;
  description: string;
  license?: string;
  compatibility?: string;
  metadata?: Record<string, string>;
  /** Patterns as written, normalised to a list (YAML list, or space/comma separated string). */
  allowedTools?: string[];
  model?: string;
  context?: "inherit" | "fork";
  agent?: string;
  hooks?: { pre?: string; post?: string };
  priority?: number;
  /** Gemini CLI's `disabled: true`: listed as disabled, never offered or activated. */
  disabled?: boolean;
  tags?: string[];
  scope?: SkillScope;
}

/** The result of checking one SKILL.md (or its absence) in a skill folder. */
export interface SkillCheck {
  /** The skill folder (absolute). */
  dir: string;
  /** The SKILL.md path that was read, or null when none exists. */
  file: string | null;
  /** sha256 (hex) of the SKILL.md bytes; "" when there is no file (or the check was asked for none: `digest: false`). */
  digest: string;
  /** The frontmatter mapping as parsed, or null when it could not be parsed into a mapping. */
  raw: Record<string, unknown> | null;
  /** Present when the skill can be loaded by an agent (lenient: a name/folder mismatch still loads). */
  properties: SkillProperties | null;
  /** The Markdown body after the closing ---, or null when the file did not parse. */
  body: string | null;
  /** 1-based line of SKILL.md where the body starts. */
  bodyStartLine: number;
  /** No error-severity diagnostic under the rule set used. */
  valid: boolean;
  /** An agent may use it (properties present); a spec-invalid skill can still be loadable. */
  loadable: boolean;
  diagnostics: Diagnostic[];
}
