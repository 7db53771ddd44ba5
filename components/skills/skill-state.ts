// How each skill state looks, in every view (skill list, editor, layers matrix, resolution chain): a symbol as
// well as a colour, so nothing relies on colour alone. The words are the domain's (SKILL_STATE_LABEL).
import { SKILL_STATE_LABEL, type SkillState } from "~/server/domain/vocabulary";

export const STATE_STYLE: Record<SkillState, { symbol: string; className: string }> = {
  active: { symbol: "★", className: "bg-emerald-100 text-emerald-900 ring-emerald-300 dark:bg-emerald-900/50 dark:text-emerald-100 dark:ring-emerald-700" },
  shadowed: { symbol: "◌", className: "bg-zinc-100 text-zinc-700 ring-zinc-300 dark:bg-zinc-800 dark:text-zinc-300 dark:ring-zinc-600" },
  blocked: { symbol: "⊗", className: "bg-rose-100 text-rose-900 ring-rose-300 dark:bg-rose-950/60 dark:text-rose-200 dark:ring-rose-800" },
  "pending-approval": { symbol: "◷", className: "bg-violet-100 text-violet-900 ring-violet-300 dark:bg-violet-950/60 dark:text-violet-200 dark:ring-violet-800" },
  disabled: { symbol: "⊘", className: "bg-amber-100 text-amber-900 ring-amber-300 dark:bg-amber-950/60 dark:text-amber-200 dark:ring-amber-800" },
  "out-of-scope": { symbol: "⌀", className: "bg-sky-50 text-sky-900 ring-sky-200 dark:bg-sky-950/50 dark:text-sky-200 dark:ring-sky-800" },
  invalid: { symbol: "✕", className: "bg-red-100 text-red-900 ring-red-300 dark:bg-red-950/60 dark:text-red-200 dark:ring-red-800" },
};

/** Words and colour for a status; one the vocabulary does not know (an older server) shows as written, unstyled. */
export const stateLabel = (status: SkillState | (string & {})): string => SKILL_STATE_LABEL[status as SkillState] ?? status;
export const stateClass = (status: SkillState | (string & {})): string => STATE_STYLE[status as SkillState]?.className ?? "";

/** Why a skill with errors can still show a loaded status: the loading is lenient (DESIGN.md), other tools are not. */
export const LENIENT = "Loaded leniently here, but spec tools (skills-ref) and other agents refuse a skill with errors: fix the errors the validator lists.";
