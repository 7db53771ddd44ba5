// The built-in tools. The skill tool needs the registry, so it is created by the host with createSkillTool.
import type { ToolDefinition } from "../types";
import { bashTool } from "./bash";
import { listFilesTool } from "./list-files";
import { readFileTool } from "./read-file";
import { runScriptTool } from "./run-script";
import { searchFilesTool } from "./search-files";
import { skillsReadTool, skillsRunScriptTool } from "./protocol";
import { writeFileTool } from "./write-file";

export { bashTool, listFilesTool, readFileTool, runScriptTool, searchFilesTool, writeFileTool };
export { createSkillTool, type SkillForActivation } from "./skill";
export { skillsRunScriptTool } from "./protocol";

/** read_file, list_files, search_files, write_file, run_script, bash. */
export function builtinTools(): ToolDefinition[] {
  return [readFileTool, listFilesTool, searchFilesTool, writeFileTool, runScriptTool, bashTool];
}

/** skills.read and skills.run_script (orchestrated mode); skills.load/unload come from the agent. */
export function orchestratedTools(): ToolDefinition[] {
  return [skillsReadTool, skillsRunScriptTool];
}
