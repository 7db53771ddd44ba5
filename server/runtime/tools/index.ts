// The tools module: one executor for every tool call, the skill stack, allowed-tools patterns,
// path confinement and the built-in tools. See README.md beside this file for the decisions.
export type { ActiveSkill, CallSubject, JsonSchemaObject, ToolCall, ToolContext, ToolDefinition, ToolInputSchema, ToolRefusal, ToolResult, ToolRunOutput } from "./types";
export { Executor, DEFAULT_ALWAYS_CALLABLE, type ExecutorOptions, type ToolSpec } from "./executor";
export { SkillStack, SkillStackError, type PushResult } from "./stack";
export { activateSkill, deactivateSkill, endRun } from "./lifecycle";
export {
  TOOL_NAME_MAP,
  describeUnmatchedPatterns,
  isCallAllowed,
  matchesCommand,
  matchesPathGlob,
  matchesPattern,
  parseToolPattern,
  parseToolPatterns,
  refusingSets,
  splitShellCommands,
  type AllowedSet,
  type CallForMatch,
  type ToolPattern,
} from "./patterns";
export { PathError, ScriptReadBlockedError, readTextCapped, resolveForRead, resolveForWrite, scriptOwner } from "./paths";
export { auditArguments, maskSecrets } from "./audit-args";
export * from "./builtin/index";
