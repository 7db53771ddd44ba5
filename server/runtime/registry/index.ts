// The registry: four layers, the stage-1 index, resolution that explains itself, bodies on activation,
// archive checks, install (plugin layer) and deploy (enterprise/personal/project).
export * from "./types";
export * from "./layers";
export { SkillIndex, type IndexChange, type RebuildStats, type ChangeListener } from "./skill-index";
export { loadBody, BodyCache, BodyLoadError, defaultBodyCache, type LoadedBody } from "./body";
export { resolve, resolveAll, parseSkillRef, precedenceSort, layerRivals, type DefinitionSource } from "./resolve";
export { approvalKey, blockReason, disabledReason, scopeReason, approvalReason } from "./policy";
export * from "./archive";
export { readSkillFolder, writeSkillFolder, SkillCopyError, type SkillFile } from "./skill-files";
export { installSkill, importSkill, readInstallSource, InstallError, type InstallOptions, type InstallResult, type ImportResult, type SkillSource } from "./install";
export { deploySkill, DeployError, type DeployOptions, type DeployReport, type WinnerSummary } from "./deploy";
export type { WatchOptions } from "./watch";
