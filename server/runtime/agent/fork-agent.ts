// A fork skill's `agent` field (Claude Code: which sub-agent type runs a skill with `context: fork`). The built-in
// types this runtime has: general-purpose (every tool of the mode, the default), Explore and Plan (read-only: no
// tool that writes a file or runs a command, as Claude Code's research agents). Any other name is a custom
// sub-agent this runtime does not define: the sub-agent runs as general-purpose and the answer says so, never
// silently.
import type { ToolDefinition } from "../tools/types";

const READ_ONLY_TYPES = new Set(["explore", "plan"]);
/** Tools that change the scratch folder or run something: what a read-only sub-agent does without. */
const CHANGING_TOOLS = new Set(["write_file", "run_script", "bash", "skills.run_script"]);

export interface ForkAgent {
  /** The type the sub-agent runs as. */
  type: string;
  readOnly: boolean;
  /** For the parent (the activation's result): how the skill's `agent` field was taken. */
  note: string | null;
}

export function forkAgentOf(skill: { name: string; agent?: string }): ForkAgent {
  const asked = skill.agent?.trim();
  if (!asked || asked.toLowerCase() === "general-purpose") return { type: "general-purpose", readOnly: false, note: null };
  if (READ_ONLY_TYPES.has(asked.toLowerCase())) {
    return { type: asked, readOnly: true, note: `[Skill '${skill.name}' runs as the ${asked} agent: read-only, without tools that write files or run commands.]` };
  }
  return { type: "general-purpose", readOnly: false, note: `[Skill '${skill.name}' asks for the agent '${asked}', which is not defined here: its sub-agent ran as general-purpose.]` };
}

/** The sub-agent's tools: all of the mode's, less those that change anything for a read-only type. */
export function toolsForForkAgent(tools: ToolDefinition[], agent: ForkAgent): ToolDefinition[] {
  return agent.readOnly ? tools.filter((t) => !CHANGING_TOOLS.has(t.name)) : tools;
}
