// The registry: four layers, the stage-1 index, resolution that explains itself, bodies on activation,
// archive checks, install (plugin layer) and deploy (enterprise/personal/project).
export * from "./types";
export * from "./layers";
export { SkillIndex } from "./skill-index";
export { buildInTurns, rebuildInTurns } from "./build-in-turns";
export { tenantView, tenantVisible } from "./tenant-view";
export { resolve, resolveAll, parseSkillRef, layerRivals, type DefinitionSource } from "./resolve";
export { approvalKey, blockReason, disabledReason, approvalReason } from "./policy";
export { diagnosticsUnder, entryValidity } from "./validity";
export * from "./archive";
export { readSkillFolder, writeSkillFolder, SkillCopyError, type SkillFile } from "./skill-files";
export { deploySkill, DeployError } from "./deploy";
