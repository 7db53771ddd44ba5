// What the editor's completion and hover help offer: the validator's own field list (so the editor never suggests
// a field the validator rejects) and the tool names allowed-tools understands.
import { RULE_FIELDS, type FieldDoc } from "../../runtime/skill";
import { TOOL_NAME_MAP } from "../../runtime/tools/patterns";

export interface EditorVocabulary {
  fields: FieldDoc[];
  /** Claude Code spellings first (what imported skills use), then this runtime's own tool names. */
  tools: { name: string; detail: string }[];
  contextValues: string[];
}

const CLAUDE_NAMES: Record<string, string> = {
  read: "Read",
  write: "Write",
  edit: "Edit",
  multiedit: "MultiEdit",
  glob: "Glob",
  ls: "LS",
  grep: "Grep",
  bash: "Bash",
  skill: "Skill",
  webfetch: "WebFetch",
  websearch: "WebSearch",
};

export function editorVocabulary(): EditorVocabulary {
  const tools: EditorVocabulary["tools"] = [];
  for (const [key, targets] of Object.entries(TOOL_NAME_MAP)) {
    tools.push({ name: CLAUDE_NAMES[key] ?? key, detail: `runs as ${targets.join(", ")}` });
  }
  tools.push({ name: "Bash(git:*)", detail: "Bash limited to commands starting with git" });
  const ours = new Set(Object.values(TOOL_NAME_MAP).flat());
  for (const t of [...ours].sort()) tools.push({ name: t, detail: "OmniForge tool" });
  return { fields: [...RULE_FIELDS], tools, contextValues: ["inherit", "fork"] };
}
