// The script door of the bash tool: a command line that a shell parser shows to be exactly one interpreter
// call of one script of the active skill, with plain arguments (`python3 scripts/x.py --in a.csv`), runs as
// that script (the sandbox mounts scripts/ for it). Every other command runs in the general shell, where the
// sandbox covers scripts/, so no spelling of a path can read a script: the sandbox decides, not this parser.
import path from "node:path";
import { parse } from "shell-quote";
import { inScriptFolder } from "../../../domain/skill-protocol";
import type { ActiveSkill } from "../types";
import { skillRelativeScript } from "./run-script";

export interface DoorCall {
  /** Relative to the skill folder, e.g. "scripts/x.py". */
  script: string;
  args: string[];
}

/** Interpreters a skill body writes, and the extensions each of them runs. */
const INTERPRETER_EXTENSIONS: Record<string, readonly string[]> = {
  python: [".py"],
  python3: [".py"],
  bash: [".sh", ".bash"],
  sh: [".sh"],
  node: [".js", ".mjs", ".cjs"],
};

/**
 * True when the text has nothing the shell would expand or interpret beyond splitting words and removing
 * quotes: no substitutions, variables, globs, braces, tildes, redirections, pipes, lists or comments.
 * Conservative on purpose: a command that is not plain runs in the general shell, which cannot see scripts/.
 */
export function isPlainCommand(text: string): boolean {
  let quote: "'" | '"' | null = null;
  for (const ch of text) {
    if (quote === "'") {
      if (ch === "'") quote = null;
      continue;
    }
    if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === "$" || ch === "`" || ch === "\\" || ch === "!") return false;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    else if (!/[A-Za-z0-9_@%+=:,./\- \t]/.test(ch)) return false;
  }
  return quote === null;
}

/** The script path of a word as the skill folder sees it, or null when it names no file of the skill. */
function skillPath(word: string, skill: ActiveSkill): string | null {
  if (word.startsWith("-") || word === "") return null;
  let rel: string;
  try {
    // /skill/... is the folder's mount point; a host path of the folder is what the body's base path gives.
    rel = word.startsWith("/skill/") ? skillRelativeScript(skill, word.slice("/skill/".length)) : skillRelativeScript(skill, word);
  } catch {
    return null;
  }
  return inScriptFolder(rel) ? rel : null;
}

/** The one script call a command line is, or null when it is anything else. */
export function scriptDoorCall(command: string, skill: ActiveSkill): DoorCall | null {
  const text = command.trim();
  if (!text || !isPlainCommand(text)) return null;
  let words: string[];
  try {
    const entries = parse(text);
    if (!entries.every((e): e is string => typeof e === "string")) return null;
    words = entries;
  } catch {
    return null;
  }
  const first = (words[0] ?? "").replace(/^\/(?:usr\/)?bin\//, "");
  const allowedExts = INTERPRETER_EXTENSIONS[first];
  const scriptWord = allowedExts ? words[1] : words[0];
  if (scriptWord === undefined) return null;
  const script = skillPath(scriptWord, skill);
  if (!script) return null;
  // `bash scripts/x.py` is not what the script is; the general shell answers it (and finds no file).
  if (allowedExts && !allowedExts.includes(path.extname(script).toLowerCase())) return null;
  return { script, args: words.slice(allowedExts ? 2 : 1) };
}
