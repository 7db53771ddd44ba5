// Public surface of the skill module. Everything outside server/runtime/skill imports from here.
export type { Diagnostic, RuleSet, Severity, SkillCheck, SkillProperties, SkillScope } from "./types";
export { checkSkillSource, checkSkillDir, checkSkillDirWithStat, type CheckSourceOptions, type CheckDirOptions, type SkillFileStat } from "./check";
export { findSkillDirs, type FindSkillDirsOptions } from "./discover";
export { parseAllowedTools } from "./allowed-tools";
export { toPrompt, readProperties, formatPropertiesJson, escapeHtml } from "./prompt";
export { estimateTokens } from "./tokens";
export {
  RULE_FIELDS,
  SPEC_FIELD_DOCS,
  EXTENSION_FIELD_DOCS,
  VENDOR_FIELD_DOCS,
  SPEC_FIELDS,
  EXTENSION_FIELDS,
  VENDOR_FIELDS,
  suggestField,
  type FieldDoc,
  type FieldKind,
} from "./fields";
export { resolveInsideSkill, type RelativePath } from "./paths";
export { MAX_SKILL_FILE_BYTES } from "./parse";
export { MAX_NAME_LENGTH, MAX_DESCRIPTION_LENGTH, MAX_COMPATIBILITY_LENGTH } from "./field-values";
export { MAX_BODY_LINES } from "./body";
export { readFrontmatter, setFrontmatterField, setFrontmatterFields, FrontmatterError, type FieldValue, type FrontmatterRead } from "./frontmatter-document";
export { nameProblems, validNameFrom, type NameProblem } from "./name-rule";
