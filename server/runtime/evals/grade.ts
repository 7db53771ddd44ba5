// Grading skill-creator's task evals (evals.json `expectations`) with a model: each eval's prompt runs through the
// agent to its answer (the skill followed, tools and scripts as usual), then the model judges every expectation
// against that answer and says why. Only a model can read an answer this way: the offline provider cannot grade.
import { MemoryAuditSink, type AuditSink } from "../audit/events";
import { runAgent } from "../agent/loop";
import type { AgentSkillSource, DisclosureMode, ModelProvider } from "../agent/types";
import type { SkillIndex } from "../registry/skill-index";
import type { ScriptRunner } from "../sandbox/types";
import { agentOptions } from "./agent-options";
import type { TaskEval } from "./format";

export interface ExpectationGrade {
  expectation: string;
  passed: boolean;
  reason: string;
}

export interface TaskGrade {
  id: string | number;
  prompt: string;
  /** The agent's answer the expectations were judged against (cut to 4,000 characters). */
  answer: string;
  /** Skills the agent activated while answering. */
  activated: string[];
  expectations: ExpectationGrade[];
  /** The run or the grading failed: no expectation was judged. */
  error?: string;
}

export class GradingUnavailable extends Error {}

export interface GradeOptions {
  evals: readonly TaskEval[];
  skills: AgentSkillSource;
  searchIndex?: SkillIndex;
  provider: ModelProvider;
  /** Who judges (default: the provider under test). */
  grader?: ModelProvider;
  mode: DisclosureMode;
  scratchDir: string;
  runner?: ScriptRunner;
  audit?: AuditSink;
  signal?: AbortSignal;
  onResult?: (g: TaskGrade, index: number) => void;
}

const GRADER_SYSTEM = "You grade the answers of an AI agent against expectations. Judge only what the answer shows; be strict.";

function graderPrompt(e: TaskEval, answer: string): string {
  return [
    `Request given to the agent:\n${e.prompt}`,
    e.expected_output ? `\nWhat a good answer looks like:\n${e.expected_output}` : "",
    `\nThe agent's answer:\n<answer>\n${answer}\n</answer>`,
    "\nFor each expectation, say whether the answer meets it and why, in one sentence:",
    ...(e.expectations ?? []).map((x, i) => `${i + 1}. ${x}`),
    '\nAnswer with JSON only, inside <grades></grades>: [{"n": 1, "passed": true, "reason": "..."}, ...], one entry per expectation.',
  ].join("\n");
}

/** The grader's verdicts, in expectation order; a missing or unreadable verdict is a failed expectation that says so. */
export function parseGrades(text: string, expectations: readonly string[]): ExpectationGrade[] {
  const inner = /<grades>([\s\S]*?)<\/grades>/i.exec(text)?.[1] ?? /\[[\s\S]*\]/.exec(text)?.[0] ?? "";
  let list: { n?: unknown; passed?: unknown; reason?: unknown }[] = [];
  try {
    const v = JSON.parse(inner) as unknown;
    if (Array.isArray(v)) list = v as typeof list;
  } catch {
    // unreadable: every expectation below says so
  }
  return expectations.map((expectation, i) => {
    const g = list.find((x) => Number(x?.n) === i + 1) ?? list[i];
    if (!g || typeof g.passed !== "boolean") return { expectation, passed: false, reason: "the grader gave no verdict for this expectation" };
    return { expectation, passed: g.passed, reason: typeof g.reason === "string" ? g.reason.slice(0, 500) : "" };
  });
}

export async function gradeTaskEvals(opts: GradeOptions): Promise<TaskGrade[]> {
  if (opts.provider.name === "offline") throw new GradingUnavailable("Grading expectations needs a model provider (OpenAI-compatible or Anthropic); the offline router cannot read an answer.");
  const grader = opts.grader ?? opts.provider;
  const out: TaskGrade[] = [];
  for (let i = 0; i < opts.evals.length; i++) {
    const e = opts.evals[i]!;
    if (!e.expectations?.length) continue;
    if (opts.signal?.aborted) break;
    let grade: TaskGrade;
    try {
      const run = await runAgent({
        ...agentOptions(opts),
        request: e.prompt,
        audit: opts.audit ?? new MemoryAuditSink(),
        sessionId: `grade-${e.id}`,
        userId: "eval",
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
      const answer = run.answer.slice(0, 4000);
      if (run.reason === "error" && !answer) throw new Error(run.error ?? "the run failed");
      const verdict = await grader.complete({
        system: GRADER_SYSTEM,
        messages: [{ role: "user", content: graderPrompt(e, answer) }],
        tools: [],
        ...(opts.signal ? { signal: opts.signal } : {}),
        hints: { mode: opts.mode, request: "", skills: [], active: [] },
      });
      grade = { id: e.id, prompt: e.prompt, answer, activated: run.activated, expectations: parseGrades(verdict.text, e.expectations) };
    } catch (err) {
      grade = { id: e.id, prompt: e.prompt, answer: "", activated: [], expectations: [], error: (err as Error).message };
    }
    out.push(grade);
    opts.onResult?.(grade, i);
  }
  return out;
}
