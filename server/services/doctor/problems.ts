// One list of a skill's problems, the editor's panel reads (issue 41 item 1): the validator's diagnostics of the
// text being edited and the doctor's findings of the saved folder, each with its severity in the validator's
// words, so the panel's counts, its lines and the editor's underlines never disagree. Silenced findings stay out:
// their owner chose so, and the doctor's report counts them apart.
import type { Finding } from "../../runtime/doctor";
import type { Diagnostic, Severity } from "../../runtime/skill/types";
import { liveCheck, type LiveCheck, type SkillRef, type SkillsContext } from "../skills";
import { skillFindings } from "./index";
import { readStoredPolicy } from "../policy/store";

export interface Problem {
  /** format: the validator's, on the text as typed; doctor: the doctor's, on the skill as saved. */
  source: "format" | "doctor";
  severity: Severity;
  code: string;
  message: string;
  /** Path in the skill folder ("SKILL.md", "scripts/run.sh"). */
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** The doctor's advice; the validator's message already says what to do. */
  fix?: string;
  quickFix?: Finding["quickFix"];
}

const DOCTOR_SEVERITY = { high: "error", medium: "warning", low: "info" } as const satisfies Record<Finding["severity"], Severity>;
const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Worst first, then by file and line, so the first line of the panel is the one to fix first. */
export function problemList(diagnostics: readonly Diagnostic[], findings: readonly Finding[]): Problem[] {
  const format: Problem[] = diagnostics.map((d) => ({ source: "format", file: "SKILL.md", ...d }));
  const doctor: Problem[] = findings
    .filter((f) => !f.silenced)
    .map((f) => ({
      source: "doctor",
      severity: DOCTOR_SEVERITY[f.severity],
      code: f.code,
      message: f.message,
      file: f.file,
      line: f.line,
      column: 1,
      endLine: f.line,
      endColumn: 1,
      fix: f.fix,
      ...(f.quickFix ? { quickFix: f.quickFix } : {}),
    }));
  return [...format, ...doctor].sort((a, b) => RANK[a.severity] - RANK[b.severity] || (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
}

/** The editor's live check of unsaved text, with the one problem list (the doctor reads the saved folder). */
export async function checkWithProblems(ctx: SkillsContext, ref: SkillRef, text: string): Promise<LiveCheck & { problems: Problem[] }> {
  const live = liveCheck(ctx, ref, text, await readStoredPolicy(ctx.db));
  const doctor = await skillFindings(ctx, ref);
  return { ...live, problems: problemList(live.diagnostics, doctor.findings) };
}
