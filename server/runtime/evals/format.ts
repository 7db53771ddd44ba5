// Trigger sets on disk, in skill-creator's formats so sets move both ways (anthropics/skills, skill-creator):
//   <skill>/evals/triggers.json  [{"query": "...", "should_trigger": true|false}]
//   <skill>/evals/evals.json     {"skill_name", "evals": [{"id", "prompt", "expected_output", "files", "expectations"}]}
// Task evals' prompts are read as should-trigger cases (grading their expectations needs a model).
// Bad input gets diagnostics with a stable code and a line/column, never an exception.
import { findNodeAtLocation, parse, parseTree, printParseErrorCode, type ParseError } from "jsonc-parser";

export const TRIGGERS_FILE = "evals/triggers.json";
export const TASK_EVALS_FILE = "evals/evals.json";
/** Most cases a set may hold: a run is N model calls per case. */
export const MAX_CASES = 500;
export const MAX_QUERY_CHARS = 4000;

export interface TriggerCase {
  query: string;
  should_trigger: boolean;
  /** Where the case came from: the trigger set, or a task eval's prompt (id kept). */
  source?: { file: typeof TRIGGERS_FILE } | { file: typeof TASK_EVALS_FILE; id: string | number };
}

export interface TaskEval {
  id: string | number;
  prompt: string;
  expected_output?: string;
  files?: string[];
  expectations?: string[];
}

export interface EvalDiagnostic {
  code: "eval.json" | "eval.shape" | "eval.query" | "eval.duplicate" | "eval.too-many";
  message: string;
  line: number;
  column: number;
}

export interface Parsed<T> {
  value: T;
  diagnostics: EvalDiagnostic[];
}

/** Most problems listed per file: a set of 80,000 bad cases gets this many and one line saying how many more. */
export const MAX_DIAGNOSTICS = 50;

type Position = { line: number; column: number };

/**
 * Line and column of offsets in one text. The line starts are found once and each offset is a binary search,
 * so pointing at every element of a large array stays linear (counting newlines per element was quadratic).
 */
function locator(text: string): (offset: number) => Position {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  };
}

/** Keeps the first MAX_DIAGNOSTICS problems and says how many more there were, so the answer stays small. */
function capped(diagnostics: EvalDiagnostic[]): EvalDiagnostic[] {
  if (diagnostics.length <= MAX_DIAGNOSTICS) return diagnostics;
  const more = diagnostics.length - MAX_DIAGNOSTICS;
  return [...diagnostics.slice(0, MAX_DIAGNOSTICS), { code: "eval.too-many", message: `${more} more problems are not listed`, line: 1, column: 1 }];
}

// A UTF-8 byte order mark (Notepad, PowerShell's Out-File) is not part of the JSON: RFC 8259 lets a reader ignore it.
const withoutBom = (text: string) => text.replace(/^\uFEFF/, "");

function parseJson(text: string, file: string): { json: unknown; diagnostics: EvalDiagnostic[] } {
  const errors: ParseError[] = [];
  const json: unknown = parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const at = locator(text);
  const diagnostics = errors.slice(0, 5).map((e) => ({
    code: "eval.json" as const,
    message: `${file} is not valid JSON: ${describe(printParseErrorCode(e.error))}`,
    ...at(e.offset),
  }));
  return { json, diagnostics };
}

const describe = (code: string) =>
  code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase(); // "CloseBraceExpected" -> "close brace expected"

/** Line and column of each element of the top-level array (or of the `evals` array), for diagnostics that point at a case. */
function elementPositions(text: string, key?: string): Position[] {
  const root = parseTree(text);
  const arr = key ? findNodeAtLocation(root!, [key]) : root;
  const at = locator(text);
  return (arr?.type === "array" ? (arr.children ?? []) : []).map((n) => at(n.offset));
}

/** Reads triggers.json. Cases with problems are left out and each problem is a diagnostic. */
export function parseTriggers(file: string): Parsed<TriggerCase[]> {
  const text = withoutBom(file);
  const { json, diagnostics } = parseJson(text, "triggers.json");
  if (diagnostics.length) return { value: [], diagnostics };
  if (!Array.isArray(json)) {
    return { value: [], diagnostics: [{ code: "eval.shape", message: 'triggers.json must be a JSON array of {"query": "...", "should_trigger": true|false}', line: 1, column: 1 }] };
  }
  const where = elementPositions(text);
  const value: TriggerCase[] = [];
  const firstCase = new Map<string, { n: number; should_trigger: boolean }>();
  json.forEach((item: unknown, i) => {
    const at = where[i] ?? { line: 1, column: 1 };
    const o = item as { query?: unknown; should_trigger?: unknown };
    if (!o || typeof o !== "object" || Array.isArray(o)) {
      diagnostics.push({ code: "eval.shape", message: `case ${i + 1} must be an object with "query" and "should_trigger"`, ...at });
      return;
    }
    if (typeof o.query !== "string" || !o.query.trim()) {
      diagnostics.push({ code: "eval.query", message: `case ${i + 1} has no "query" text`, ...at });
      return;
    }
    if (o.query.length > MAX_QUERY_CHARS) {
      diagnostics.push({ code: "eval.query", message: `case ${i + 1}: the query is longer than ${MAX_QUERY_CHARS} characters`, ...at });
      return;
    }
    if (typeof o.should_trigger !== "boolean") {
      diagnostics.push({ code: "eval.shape", message: `case ${i + 1}: "should_trigger" must be true or false`, ...at });
      return;
    }
    // The same query twice counts twice in every figure; with opposite answers one of the two always fails.
    const first = firstCase.get(o.query);
    if (first) {
      const why = first.should_trigger === o.should_trigger ? "it would count twice" : `with the opposite "should_trigger", so one of the two always fails`;
      diagnostics.push({ code: "eval.duplicate", message: `case ${i + 1} repeats the query of case ${first.n} (${why}); it is left out`, ...at });
      return;
    }
    firstCase.set(o.query, { n: i + 1, should_trigger: o.should_trigger });
    value.push({ query: o.query, should_trigger: o.should_trigger });
  });
  const listed = capped(diagnostics);
  if (value.length > MAX_CASES) {
    listed.push({ code: "eval.too-many", message: `the set has ${value.length} cases; at most ${MAX_CASES} are run`, line: 1, column: 1 });
    value.length = MAX_CASES;
  }
  return { value, diagnostics: listed };
}

/** Writes a set exactly as skill-creator does: a JSON array, two-space indent, the two keys in order. */
export function formatTriggers(cases: readonly Pick<TriggerCase, "query" | "should_trigger">[]): string {
  return JSON.stringify(cases.map((c) => ({ query: c.query, should_trigger: c.should_trigger })), null, 2) + "\n";
}

/** Reads evals.json (skill-creator's task evals); their prompts become should-trigger cases. */
export function parseTaskEvals(file: string): Parsed<{ skillName: string | null; evals: TaskEval[] }> {
  const text = withoutBom(file);
  const { json, diagnostics } = parseJson(text, "evals.json");
  const empty = { skillName: null, evals: [] };
  if (diagnostics.length) return { value: empty, diagnostics };
  const o = json as { skill_name?: unknown; evals?: unknown };
  if (!o || typeof o !== "object" || !Array.isArray(o.evals)) {
    return { value: empty, diagnostics: [{ code: "eval.shape", message: 'evals.json must be {"skill_name": "...", "evals": [...]}', line: 1, column: 1 }] };
  }
  const where = elementPositions(text, "evals");
  const evals: TaskEval[] = [];
  o.evals.forEach((item: unknown, i) => {
    const e = item as Partial<TaskEval>;
    const at = where[i] ?? { line: 1, column: 1 };
    if (!e || typeof e !== "object" || typeof e.prompt !== "string" || !e.prompt.trim()) {
      diagnostics.push({ code: "eval.query", message: `eval ${i + 1} has no "prompt" text`, ...at });
      return;
    }
    const id = typeof e.id === "string" || typeof e.id === "number" ? e.id : i + 1;
    evals.push({
      id,
      prompt: e.prompt,
      ...(typeof e.expected_output === "string" ? { expected_output: e.expected_output } : {}),
      ...(Array.isArray(e.files) ? { files: e.files.filter((f): f is string => typeof f === "string") } : {}),
      ...(Array.isArray(e.expectations) ? { expectations: e.expectations.filter((x): x is string => typeof x === "string") } : {}),
    });
  });
  return { value: { skillName: typeof o.skill_name === "string" ? o.skill_name : null, evals }, diagnostics: capped(diagnostics) };
}

/** One set from both files: the trigger cases, then each task eval's prompt as a should-trigger case. */
export function combineCases(triggers: TriggerCase[], tasks: TaskEval[]): TriggerCase[] {
  const seen = new Set(triggers.map((c) => c.query));
  const fromTasks = tasks
    .filter((t) => !seen.has(t.prompt))
    .map((t): TriggerCase => ({ query: t.prompt, should_trigger: true, source: { file: TASK_EVALS_FILE, id: t.id } }));
  return [...triggers.map((c): TriggerCase => ({ ...c, source: { file: TRIGGERS_FILE } })), ...fromTasks].slice(0, MAX_CASES);
}
