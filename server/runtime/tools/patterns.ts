// allowed-tools patterns as skills from Claude Code, Codex and Gemini CLI write them, and how a tool call
// is matched against them. Tool names are case-insensitive; command and path arguments are not.
import { parseAllowedTools } from "../skill/allowed-tools";
import type { CallSubject } from "./subject";

/**
 * Claude Code tool names -> our tool names, so an imported skill's restriction means what its author meant.
 * Bash covers both command tools; Grep maps to search_files (which we provide); Edit/MultiEdit write
 * through write_file's edit form. skills.read / skills.run_script are the orchestrated-mode spellings.
 */
export const TOOL_NAME_MAP: Readonly<Record<string, readonly string[]>> = {
  read: ["read_file", "skills.read"],
  write: ["write_file"],
  edit: ["write_file"],
  multiedit: ["write_file"],
  glob: ["list_files"],
  ls: ["list_files"],
  grep: ["search_files"],
  bash: ["bash", "run_script", "skills.run_script"],
  skill: ["skill"],
  webfetch: ["webfetch", "web_fetch"],
  websearch: ["websearch", "web_search"],
};

/** Claude Code names that exist there but have no counterpart here: kept, never match, reported as such. */
const KNOWN_WITHOUT_COUNTERPART = new Set(["task", "todowrite", "notebookedit", "notebookread", "exitplanmode", "killshell", "bashoutput", "agent"]);

/** Tool names this runtime provides (built-ins and protocol tools); others are reported as unknown. */
const OUR_TOOLS = new Set([
  "read_file",
  "write_file",
  "list_files",
  "search_files",
  "bash",
  "run_script",
  "skill",
  "skills.load",
  "skills.unload",
  "skills.read",
  "skills.run_script",
]);

export interface ToolPattern {
  /** The pattern as written, e.g. "Bash(git:*)". */
  raw: string;
  /** The tool name as written, lower-cased ("bash", "read_file", "mcp__github__get_issue", "*"). */
  tool: string;
  /** Our tool names this pattern can allow ("*" for every tool). */
  targets: string[];
  /** Text inside the parentheses, when present and not "*" (which means any argument). */
  argPattern?: string;
  /**
   * mapped: a Claude Code name with a counterpart; native: one of our names; mcp: mcp__server[__tool];
   * any: "*"; unmapped: a known Claude Code tool we do not have; unknown: nothing we know.
   */
  kind: "mapped" | "native" | "mcp" | "any" | "unmapped" | "unknown";
}

/** Parses one pattern. Never throws: a malformed pattern becomes an unknown one that matches nothing. */
export function parseToolPattern(raw: string): ToolPattern {
  const text = String(raw).trim();
  const m = /^([^()\s]+)\s*(?:\((.*)\))?$/s.exec(text);
  if (!m) return { raw: text, tool: text.toLowerCase(), targets: [], kind: "unknown" };
  const tool = m[1]!.toLowerCase();
  const inner = m[2]?.trim();
  const argPattern = inner === undefined || inner === "" || inner === "*" || inner === "**" ? undefined : inner;
  const base = { raw: text, tool, ...(argPattern !== undefined ? { argPattern } : {}) };
  if (tool === "*") return { ...base, targets: ["*"], kind: "any" };
  const mapped = TOOL_NAME_MAP[tool];
  if (mapped) return { ...base, targets: [...mapped], kind: "mapped" };
  if (tool.startsWith("mcp__")) return { ...base, targets: [tool], kind: "mcp" };
  if (OUR_TOOLS.has(tool)) return { ...base, targets: [tool], kind: "native" };
  if (KNOWN_WITHOUT_COUNTERPART.has(tool)) return { ...base, targets: [tool], kind: "unmapped" };
  // Unknown names are kept: they allow a tool of exactly that name if a host registers one.
  return { ...base, targets: [tool], kind: "unknown" };
}

/**
 * An allowed-tools value (string or YAML list) as parsed patterns. The splitting is the skill format's own
 * (../skill/allowed-tools.ts), so the editor, the validator and the executor read a value the same way.
 */
export function parseToolPatterns(value: unknown): ToolPattern[] {
  return parseAllowedTools(value).map(parseToolPattern);
}

/** Patterns that can never match one of our tools, with a sentence for the editor's warning. */
export function describeUnmatchedPatterns(patterns: ToolPattern[]): { raw: string; message: string }[] {
  return patterns
    .filter((p) => p.kind === "unknown" || p.kind === "unmapped")
    .map((p) => ({
      raw: p.raw,
      message:
        p.kind === "unmapped"
          ? `"${p.raw}" is a Claude Code tool with no counterpart here; it allows nothing in OmniForge`
          : `"${p.raw}" is not a tool this runtime knows; it only allows a tool registered under that exact name`,
    }));
}

/** A call as the matcher sees it: our canonical tool name plus what its arguments say. */
export interface CallForMatch extends CallSubject {
  tool: string;
}

function escapeRegex(s: string): string {
  return s.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
}

/** One simple command against a command pattern: `git:*` / `git *` prefix at a word boundary, else glob, else exact. */
export function matchesCommand(command: string, pattern: string): boolean {
  const cmd = command.trim().replace(/\s+/g, " ");
  const pat = pattern.trim().replace(/\s+/g, " ");
  const prefix = pat.endsWith(":*") ? pat.slice(0, -2) : pat.endsWith(" *") && !pat.slice(0, -2).includes("*") ? pat.slice(0, -2) : null;
  if (prefix !== null) {
    const p = prefix.trimEnd();
    return cmd === p || cmd.startsWith(p + " ");
  }
  if (pat.includes("*")) {
    const re = new RegExp("^" + pat.split("*").map(escapeRegex).join(".*") + "$", "s");
    return re.test(cmd);
  }
  return cmd === pat;
}

/**
 * Splits a shell command line into simple commands at ; && || | & and newlines (outside quotes), so
 * `git status && rm -rf x` is two commands that must each be allowed. Returns null when the line holds
 * command substitution or process substitution, which no argument pattern can vouch for.
 */
export function splitShellCommands(line: string): string[] | null {
  const out: string[] = [];
  let cur = "";
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    const next = line[i + 1];
    if (quote === "'") {
      cur += ch;
      if (ch === "'") quote = null;
      continue;
    }
    if (ch === "\\") {
      cur += ch + (next ?? "");
      i++;
      continue;
    }
    if (ch === "`" || (ch === "$" && next === "(")) return null;
    if (quote === '"') {
      cur += ch;
      if (ch === '"') quote = null;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      cur += ch;
      continue;
    }
    if ((ch === "<" || ch === ">") && next === "(") return null;
    const prev = line[i - 1];
    const isRedirectAmp = ch === "&" && (prev === ">" || prev === "<" || next === ">");
    if (ch === ";" || ch === "\n" || ch === "|" || (ch === "&" && !isRedirectAmp)) {
      if (cur.trim()) out.push(cur.trim());
      cur = "";
      if ((ch === "&" && next === "&") || (ch === "|" && (next === "|" || next === "&"))) i++;
      continue;
    }
    cur += ch;
  }
  if (quote) return null; // unbalanced quotes: refuse rather than guess how bash reads it
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** Path glob: ** any depth, * within one segment, ? one character. */
export function matchesPathGlob(filePath: string, pattern: string): boolean {
  const norm = (p: string) => p.replace(/\\/g, "/").replace(/^(\.\/)+/, "");
  const pat = norm(pattern);
  let re = "";
  for (let i = 0; i < pat.length; i++) {
    const ch = pat[i]!;
    if (ch === "*" && pat[i + 1] === "*") {
      i++;
      if (pat[i + 1] === "/") {
        re += "(?:.*/)?"; // **/ is zero or more folders
        i++;
      } else re += ".*";
    } else if (ch === "*") re += "[^/]*";
    else if (ch === "?") re += "[^/]";
    else re += escapeRegex(ch);
  }
  return new RegExp("^" + re + "$").test(norm(filePath));
}

function toolMatches(tool: string, pattern: ToolPattern): boolean {
  const t = tool.toLowerCase();
  if (pattern.targets.includes("*") || pattern.targets.includes(t)) return true;
  // mcp__server allows every tool of that server; mcp__server__* likewise.
  if (pattern.kind === "mcp") {
    if (pattern.tool.endsWith("__*")) return t.startsWith(pattern.tool.slice(0, -1));
    if (pattern.tool.split("__").length === 2) return t.startsWith(pattern.tool + "__");
  }
  return false;
}

/** Does one pattern allow this call? A pattern with arguments allows only calls whose subject matches them. */
export function matchesPattern(call: CallForMatch, pattern: ToolPattern): boolean {
  if (!toolMatches(call.tool, pattern)) return false;
  const arg = pattern.argPattern;
  if (arg === undefined) return true;
  if (call.commandAlternatives && call.commandAlternatives.length > 0) {
    return call.commandAlternatives.some((alt) => matchesCommand(alt, arg));
  }
  if (typeof call.commandLine === "string") {
    const parts = splitShellCommands(call.commandLine);
    return parts !== null && parts.length > 0 && parts.every((p) => matchesCommand(p, arg));
  }
  if (typeof call.path === "string") return matchesPathGlob(call.path, arg);
  return false;
}

/** undefined = that skill adds no restriction. */
export type AllowedSet = ToolPattern[] | undefined;

/** Indexes of the sets that refuse the call (the call is allowed when this is empty). */
export function refusingSets(call: CallForMatch, allowedSets: readonly AllowedSet[]): number[] {
  const out: number[] = [];
  allowedSets.forEach((set, i) => {
    if (set !== undefined && !set.some((p) => matchesPattern(call, p))) out.push(i);
  });
  return out;
}

/** Intersection: allowed only when every restricting set allows it. */
export function isCallAllowed(call: CallForMatch, allowedSets: readonly AllowedSet[]): boolean {
  return refusingSets(call, allowedSets).length === 0;
}
