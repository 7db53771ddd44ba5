// Trigger evals: does a skill fire when it should, against the whole catalog (issue #17). Runtime only: the
// CLI, the console's services and the bench all run sets through here.
export * from "./format";
export { runTriggerEval, defaultRuns, DEFAULT_THRESHOLD, MAX_RUNS, type QueryResult } from "./run";
export { summarize, type EvalSummary } from "./summary";
export { suggestDescription, MAX_ITERATIONS, type Suggestion } from "./suggest";
export { gradeTaskEvals, type TaskGrade } from "./grade";
