// Trigger evals: does a skill fire when it should, against the whole catalog (issue #17). Runtime only: the
// CLI, the console's services and the bench all run sets through here.
export * from "./format";
export { runTriggerEval, defaultRuns, DEFAULT_THRESHOLD, MAX_RUNS, type QueryResult, type TriggerRunOptions, type ListedAs } from "./run";
export { summarize, compareRuns, type EvalSummary, type OutcomeChange } from "./summary";
export { suggestDescription, splitCases, cleanProposal, DEFAULT_ITERATIONS, MAX_ITERATIONS, type Suggestion, type Candidate, type SuggestOptions } from "./suggest";
export { gradeTaskEvals, parseGrades, GradingUnavailable, type TaskGrade, type ExpectationGrade, type GradeOptions } from "./grade";
