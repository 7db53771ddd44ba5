// Public surface of the skill module. Everything outside server/runtime/skill imports from here.
export type { Diagnostic, RuleSet, SkillCheck } from "./types";
export { checkSkillSource, checkSkillDir, checkSkillDirWithStat } from "./check";
export { findSkillDirs } from "./discover";
export { toPrompt, readProperties, formatPropertiesJson } from "./prompt";
export { estimateTokens } from "./tokens";
export {
  RULE_FIELDS,
  SPEC_FIELDS,
  EXTENSION_FIELDS,
  VENDOR_FIELDS,
  suggestField,
  type FieldDoc,
} from "./fields";
export { resolveInsideSkill } from "./paths";
export { setFrontmatterField, FrontmatterError } from "./frontmatter-document";
export { asciiNameFrom, nameProblems } from "./name-rule";
