// Trigger tests in the console (issue #17): sets stored with the skill, runs stored in the database.
export { readTriggerSet, saveTriggerSet, casesOf, type TriggerSet } from "./sets";
export { startRun, getRun, listRuns, cancelRun, overview, settledRun, type StartRunInput, type EvalRunView } from "./runs";
