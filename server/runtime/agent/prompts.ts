// The system prompt pieces (spec 000 "Complete Agent System Prompt Structure"): role, how to use tools,
// how to navigate a skill (path resolution against the base path, scripts are run not read, references
// on demand), and the mode's own rules. Written for any model: explicit, no vendor-specific conventions.
import type { DisclosureMode } from "./types";

export const ROLE =
  "You are an assistant that completes the user's request using tools and skills. A skill is a folder with a SKILL.md " +
  "(instructions) and optional scripts/, references/ and assets/. Follow an active skill's instructions precisely.";

export const TOOL_RULES = `## Tools
- Call a tool by its name with a JSON object of arguments that matches its parameters (required ones must be present, types must match).
- Every result says whether it succeeded. On failure, read the error: fix the arguments and retry, try another way, or tell the user.
- Never claim a tool did something it did not report. For scripts, check the exit code and read stdout and stderr.
- A skill may restrict which tools you can use while it is active ("allowed-tools"). A refused call is final: do not retry it; deactivate the skill if the task needs that tool.
- When you have what you need, answer the user directly in plain text without calling a tool.`;

export const NAVIGATION_RULES = `## Navigating a skill
When a skill is active you know its base path (the folder that holds its SKILL.md).
- Path resolution: a relative path in the skill (reference.md, references/forms.md, scripts/fill.py) means {base path}/{relative path}. Absolute paths and URLs are used as they are. Always use forward slashes.
- Reference documents: a Markdown link such as [forms](references/forms.md) points to a file to read with the file-reading tool, only when the task needs that information. Do not read every file up front.
- Scripts: a command in a bash code block (for example \`python scripts/validate.py input.txt\`) is to be executed with the script tool, not read. Never read files under scripts/; only their output matters.
- Instructions like "read forms.md and follow it" mean: read that file, then apply it to the task.
- Files you create go in the session scratch folder (write_file).`;

function modeRules(mode: DisclosureMode): string {
  switch (mode) {
    case "tool":
      return `## Skills
The skills you can use are listed in the description of the \`skill\` tool. When a skill matches the request, call the \`skill\` tool with its name as your first action; do not just mention the skill. The result gives you its base path and instructions. Call it with action "deactivate" to drop the most recent skill when it no longer fits. When no listed skill fits, \`skill_search\` finds skills by what they do, also those not listed.`;
    case "prompt":
      return `## Skills
The skills you can use are listed below with the location of each SKILL.md. When a task matches a skill's description, read its SKILL.md first with read_file (pass the location exactly as listed), then follow its instructions. Reading the SKILL.md activates the skill, and its tool restrictions apply from then on. When no listed skill fits, skill_search finds skills by what they do (with their locations), also those not listed.`;
    case "orchestrated":
      return `## Skills
You MUST call skills.load with a skill's name before using its instructions, resources or scripts. Loaded skills' instructions appear in <active_skills> below, most recently loaded last; if they conflict, the later one wins. Use skills.read for a skill's files (paths relative to its folder), skills.run_script to run its scripts, and skills.unload when a skill no longer fits (mode "replace" on skills.load switches skills). When no listed skill fits, skills.search finds skills by what they do, also those not listed.`;
  }
}

/** The fixed part of the system prompt (everything but the mode's listing and injected bodies). */
export function baseSystemPrompt(mode: DisclosureMode): string {
  return [ROLE, TOOL_RULES, NAVIGATION_RULES, modeRules(mode)].join("\n\n");
}

/** The system prompt when skills are off: the tool rules, not a word about skills (seed 003: off costs nothing). */
export function plainSystemPrompt(): string {
  const rules = TOOL_RULES.split("\n").filter((line) => !/skill/i.test(line));
  return ["You are an assistant that completes the user's request using tools.", rules.join("\n")].join("\n\n");
}

/** Instructions of a `context: fork` sub-agent: the skill body is its primary instruction, nothing of the parent. */
export function forkSystemPrompt(skill: { name: string; baseDir: string; body: string }, agent?: { type: string; readOnly: boolean }): string {
  return [
    `You are a sub-agent running the skill '${skill.name}'. Its instructions below are your primary instructions. ` +
      `You do not see the conversation that led here; only your final answer goes back.` +
      (agent?.readOnly ? ` You run as the ${agent.type} agent: read-only, so you have no tool that writes files or runs commands.` : ""),
    TOOL_RULES,
    NAVIGATION_RULES,
    `## Skill '${skill.name}' (base path: ${skill.baseDir})\n\n${skill.body.trim()}`,
  ].join("\n\n");
}

/** `<active_skills>` for orchestrated mode, in load order (most recent last). */
export function activeSkillsBlock(skills: { name: string; baseDir: string; body: string }[]): string {
  if (!skills.length) return "";
  const inner = skills
    .map((s) => `<skill name="${s.name}" base_path="${s.baseDir}">\n${s.body.trim()}\n</skill>`)
    .join("\n");
  return `<active_skills>\n${inner}\n</active_skills>`;
}

/** The skill tool's description in tool mode, carrying the listing (spec 000 "Skill Tool Description"). */
export function skillToolDescription(listing: string): string {
  return `Activate a skill to get its instructions and base path, or deactivate one.
Invoke with {"name": "<skill name>"}; {"name": "<skill>", "action": "deactivate"} drops the most recently activated skill ("all" drops every one).

${listing}

- Invoke this tool as your first action when a skill is relevant; never just announce a skill.
- Only use skills listed in <available_skills> or found with skill_search. Do not invoke a skill that is already active.`;
}
