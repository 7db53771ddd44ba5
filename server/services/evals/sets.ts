// A skill's trigger set as the console edits it: evals/triggers.json in skill-creator's format, read and saved
// through the skills service (so confinement, rights, versions and the skill_saved audit event are the same
// as for any file of the skill), plus the prompts of evals/evals.json as should-trigger cases.
import { combineCases, formatTriggers, type TaskEval, parseTriggers, TASK_EVALS_FILE, TRIGGERS_FILE, type EvalDiagnostic, type TriggerCase } from "../../runtime/evals";
import { offloadText } from "../offload/pool";
import { readSkillFile, saveFile, type SkillRef, type SkillsContext } from "../skills";
import { SkillServiceError } from "../skills/errors";

export interface TriggerSet {
  /** The cases of triggers.json (what the table edits). */
  triggers: TriggerCase[];
  /** Prompts of evals.json, run as should-trigger cases (read only here). */
  fromTasks: TriggerCase[];
  /** sha256 of triggers.json as read (null: no file yet); a save sends it back. */
  digest: string | null;
  diagnostics: (EvalDiagnostic & { file: string })[];
  /** Whether evals.json has expectations, which only a model provider can grade. */
  hasExpectations: boolean;
  /** The task evals of evals.json as read (their expectations are graded with a model provider). */
  tasks: TaskEval[];
}

function readOptional(ctx: SkillsContext, ref: SkillRef, file: string) {
  try {
    return readSkillFile(ctx, ref, file);
  } catch (e) {
    if (e instanceof SkillServiceError && e.code === "NOT_FOUND" && e.message.startsWith(file)) return null;
    throw e;
  }
}

/** Reads both files here (rights, confinement) and parses them in the offload worker when large: a stored set may be megabytes. */
export async function readTriggerSet(ctx: SkillsContext, ref: SkillRef): Promise<TriggerSet> {
  const t = readOptional(ctx, ref, TRIGGERS_FILE);
  const e = readOptional(ctx, ref, TASK_EVALS_FILE);
  const [triggers, tasks] = await Promise.all([
    t?.text != null ? offloadText("parseTriggers", t.text) : { value: [], diagnostics: [] },
    e?.text != null ? offloadText("parseTaskEvals", e.text) : { value: { skillName: null, evals: [] }, diagnostics: [] },
  ]);
  const inTriggers = new Set(triggers.value.map((c) => c.query));
  return {
    triggers: triggers.value,
    fromTasks: combineCases([], tasks.value.evals).filter((c) => !inTriggers.has(c.query)),
    digest: t?.digest ?? null,
    diagnostics: [...triggers.diagnostics.map((d) => ({ ...d, file: TRIGGERS_FILE })), ...tasks.diagnostics.map((d) => ({ ...d, file: TASK_EVALS_FILE }))],
    hasExpectations: tasks.value.evals.some((x) => (x.expectations?.length ?? 0) > 0),
    tasks: tasks.value.evals,
  };
}

/** Every case a run uses: triggers.json, then evals.json prompts not already there. */
export const casesOf = (set: TriggerSet): TriggerCase[] => [...set.triggers, ...set.fromTasks];

/** Saves the table as triggers.json (a new version of the skill). `baseDigest` guards against a concurrent edit. */
export function saveTriggerSet(ctx: SkillsContext, ref: SkillRef, cases: Pick<TriggerCase, "query" | "should_trigger">[], baseDigest: string | null, message = "") {
  const text = formatTriggers(cases);
  const check = parseTriggers(text);
  if (check.diagnostics.length) throw new SkillServiceError("BAD_REQUEST", check.diagnostics.map((d) => d.message).join("; "));
  return saveFile(ctx, { ref, path: TRIGGERS_FILE, text, baseDigest, message: message || "trigger set" });
}
