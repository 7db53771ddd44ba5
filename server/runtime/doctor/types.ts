// The contract of the skill doctor: what a finding is and what a report holds. The editor, the CLI, the
// catalog report and policy read only these shapes. Pure types: no import of next, react or the database.

export const DOCTOR_SEVERITIES = ["high", "medium", "low"] as const;
export type DoctorSeverity = (typeof DOCTOR_SEVERITIES)[number];

/** Who silenced a finding: the skill's own frontmatter (metadata doctor-ignore) or the catalog's policy. */
export type SilencedBy = "skill" | "policy";

export interface Finding {
  /** Stable identifier from the CHECKS table (checks.ts), e.g. "tools.missing". Never reworded once shipped. */
  code: string;
  severity: DoctorSeverity;
  /** What is wrong in this skill, for a person. */
  message: string;
  /** Path relative to the skill folder ("SKILL.md", "scripts/run.sh"). */
  file: string;
  /** 1-based line in that file (1 for file-level findings). */
  line: number;
  /** The offending text, trimmed to one line. */
  snippet?: string;
  /** How to fix it (the check's advice, made specific where possible). */
  fix: string;
  /** Set when the finding is silenced: it is still returned so callers can show and audit it. */
  silenced?: SilencedBy;
  /** An obvious fix an editor can apply in one click: a tool pattern to add to, or remove from, allowed-tools. */
  quickFix?: { addTool: string } | { removeTool: string };
}

export interface SkillReport {
  /** Absolute skill folder. */
  dir: string;
  /** The frontmatter name, or the folder name when the frontmatter has none. */
  name: string;
  description: string;
  findings: Finding[];
}

/** Two skills whose descriptions compete for the same requests. */
export interface Overlap {
  /** Skill folders (absolute), a before b by path. */
  a: string;
  b: string;
  aName: string;
  bName: string;
  /** Words both descriptions share that decided the ranking. */
  sharedWords: string[];
  /** What was searched and how close the two scored (b's score / a's score for a's own query, 0..1+). */
  evidence: { query: string; from: string; ratio: number }[];
  suggestion: string;
}

export interface CatalogReport {
  skills: SkillReport[];
  overlaps: Overlap[];
}

export interface DoctorOptions {
  /** Codes (or "family.*") silenced by policy for every skill. */
  ignore?: readonly string[];
  /**
   * How many other definitions of this skill's name are in its own layer (the registry knows; the doctor reads
   * folders). Undefined: unknown, and the priority check says nothing.
   */
  layerRivals?: (skill: { dir: string; name: string }) => number | undefined;
  /** Milliseconds for one skill's checks (DOCTOR_BUDGET_MS when unset); past it the skill is not fully checked. */
  budgetMs?: number;
  /** The clock the budget reads, in milliseconds (performance.now when unset). */
  clock?: () => number;
}
