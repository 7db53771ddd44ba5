// Trigger tests in the console (issue #17): sets stored with the skill, runs stored in the database.
export { readTriggerSet, saveTriggerSet } from "./sets";
export { startRun, getRun, listRuns, cancelRun, overview, settledRun } from "./runs";
export { suggestForSkill, applyDescription } from "./suggest";
