// The tools family: what the body tells the agent to do (commands in shell code blocks and inline code, file
// writes, URL fetches) checked against allowed-tools with the executor's own matcher (../tools/patterns), and
// the reverse: patterns that nothing in the body or the scripts uses. No allowed-tools (or an empty one) means
// no restriction, exactly as the executor reads it.
import { commandAlternatives } from "../tools/builtin/run-script";
import { isCallAllowed, matchesPattern, parseToolPatterns, type CallForMatch, type ToolPattern } from "../tools/patterns";
import { finding } from "./checks";
import type { SkillContext } from "./context";
import { scriptFiles } from "./scripts";
import { shellLines } from "./shell";
import type { Finding } from "./types";

export interface BodyUse {
  /** Shell commands the body tells the agent to run, with their SKILL.md line; `inline` when from a code span in prose. */
  commands: { text: string; line: number; inline?: true }[];
  /** Lines that tell the agent to write or edit files. */
  writes: number[];
  /** Lines that tell the agent to fetch a URL. */
  fetches: number[];
}

const SHELL_FENCES = new Set(["bash", "sh", "shell", "zsh", "console", "shell-session", "terminal"]);
/** First words that make an inline code span a command to run. */
const COMMAND_WORDS = new Set(["python", "python3", "bash", "sh", "zsh", "node", "npx", "npm", "pnpm", "yarn", "bun", "deno", "git", "gh", "curl", "wget", "pip", "pip3", "uv", "uvx", "make", "docker", "cargo", "go", "jq", "tsx", "pytest", "ruby", "perl"]);
/** Where an instruction starts: the line, a list item, or a new sentence (the verb is imperative there). */
const STEP = String.raw`(?:^\s*(?:(?:[-*+]|\d+[.)])\s+)?(?:\*\*[^*]+\*\*:?\s+)?|[.!?:;]\s+)`;
const WRITE_INTENT = new RegExp(STEP + String.raw`(?:write|save|create|edit|modify|update|overwrite|append)\b[^.\n]{0,50}\b(?:file|files|\.md|\.json|\.ya?ml|\.txt|\.py|to disk)\b`, "i");
/** "use the Write tool", "with the Edit tool": a write named by its tool rather than by a verb. */
const WRITE_TOOL_NAMED = /\b(?:use|using|with|call)\s+(?:the\s+)?`?(?:Write|Edit|MultiEdit|write_file)`?\s+tool\b/i;
const FETCH_INTENT = new RegExp(STEP + String.raw`(?:fetch|download|retrieve|browse|open|visit|read)\b[^.\n]{0,60}https?:\/\/`, "i");
const SCRIPT_EXT = /\.(?:py|sh|bash|js|mjs|cjs|ts)$/;

/** Reads the body once: fences with their language, inline code spans, prose intents. */
export function bodyUse(body: string, bodyStartLine: number): BodyUse {
  const use: BodyUse = { commands: [], writes: [], fetches: [] };
  const lines = body.split("\n");
  let fence: { marker: string; lang: string; start: number; text: string[] } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const line = bodyStartLine + i;
    const f = /^\s{0,3}(`{3,}|~{3,})\s*([\w+-]*)/.exec(l);
    if (fence) {
      if (f && f[1]!.startsWith(fence.marker) && !f[2]) {
        if (SHELL_FENCES.has(fence.lang)) {
          const prompt = fence.lang === "console" || fence.lang === "shell-session" || fence.text.some((t) => /^\s*\$ /.test(t));
          const text = fence.text.map((t) => (prompt ? (/^\s*\$ /.test(t) ? t.replace(/^\s*\$ /, "") : "") : t)).join("\n");
          for (const s of shellLines(text, fence.start + 1)) use.commands.push({ text: s.text, line: s.line });
        }
        fence = null;
      } else fence.text.push(l);
      continue;
    }
    if (f) {
      fence = { marker: f[1]!, lang: f[2]!.toLowerCase(), start: line, text: [] };
      continue;
    }
    for (const m of l.matchAll(/`([^`\n]+)`/g)) {
      const code = m[1]!.trim().replace(/^\$ /, "");
      const first = code.split(/\s+/)[0]!;
      const runsScript = /^(?:\.\/)?scripts\//.test(first) && SCRIPT_EXT.test(first) && /\b(?:run|runs|execute|invoke|call)\b/i.test(l.slice(0, m.index));
      if ((COMMAND_WORDS.has(first) && code.includes(" ")) || runsScript) use.commands.push({ text: code, line, inline: true });
    }
    if (WRITE_INTENT.test(l) || WRITE_TOOL_NAMED.test(l)) use.writes.push(line);
    if (FETCH_INTENT.test(l)) use.fetches.push(line);
  }
  return use;
}

/** The script of the skill a command runs, with its arguments: how run_script would see it. */
function scriptRun(text: string, scripts: Set<string>): { rel: string; args: string[] } | null {
  const words = text.split(/\s+/);
  let i = 0;
  if (/^(?:python3?|bash|sh|node|tsx|uv|uvx)$/.test(words[0]!)) i = words[0] === "uv" && words[1] === "run" ? 2 : 1;
  const rel = words[i]?.replace(/^\.\//, "");
  return rel && scripts.has(rel) ? { rel, args: words.slice(i + 1) } : null;
}

/** Allowed the way the executor would allow it: as a bash command line, or as run_script for a skill script. */
function commandAllowed(text: string, patterns: ToolPattern[], scripts: Set<string>): boolean {
  if (isCallAllowed({ tool: "bash", commandLine: text }, [patterns])) return true;
  const run = scriptRun(text, scripts);
  return run !== null && isCallAllowed({ tool: "run_script", commandAlternatives: commandAlternatives(run.rel, run.args) }, [patterns]);
}

/** A tool named in prose has no argument to match: any pattern for the tool counts. */
const toolOnly = (tool: string, patterns: ToolPattern[]) => patterns.some((p) => matchesPattern({ tool }, { ...p, argPattern: undefined }));

const MAX_MISSING = 20;

export function checkTools(ctx: SkillContext): Finding[] {
  const allowed = ctx.check.properties?.allowedTools;
  if (!allowed || allowed.length === 0) return [];
  const patterns = parseToolPatterns(allowed);
  const use = bodyUse(ctx.body, ctx.bodyStartLine);
  const scripts = new Set(scriptFiles(ctx));
  const out: Finding[] = [];
  const reported = new Set<string>();
  for (const c of use.commands) {
    if (out.length >= MAX_MISSING) break;
    if (reported.has(c.text) || commandAllowed(c.text, patterns, scripts)) continue;
    reported.add(c.text);
    const first = c.text.split(/\s+/).slice(0, 2).join(" ");
    out.push({ ...finding("tools.missing", `the body runs \`${c.text.length > 80 ? c.text.slice(0, 79) + "…" : c.text}\`, which allowed-tools does not allow`, "SKILL.md", c.line, c.text, `Add Bash(${first} *) (or Bash) to allowed-tools, or remove the instruction.`), quickFix: { addTool: `Bash(${first} *)` } });
  }
  if (use.writes.length && !toolOnly("write_file", patterns)) {
    out.push({ ...finding("tools.missing", "the body asks the agent to write or edit files, which allowed-tools does not allow", "SKILL.md", use.writes[0]!, lineOf(ctx, use.writes[0]!), "Add Write (and Edit) to allowed-tools, or remove the instruction."), quickFix: { addTool: "Write" } });
  }
  if (use.fetches.length && !toolOnly("webfetch", patterns)) {
    out.push({ ...finding("tools.missing", "the body asks the agent to fetch a URL, which allowed-tools does not allow", "SKILL.md", use.fetches[0]!, lineOf(ctx, use.fetches[0]!), "Add WebFetch to allowed-tools, or remove the instruction."), quickFix: { addTool: "WebFetch" } });
  }
  out.push(...unused(ctx, patterns, use, scripts));
  return out;
}

function lineOf(ctx: SkillContext, line: number): string {
  return ctx.body.split("\n")[line - ctx.bodyStartLine] ?? "";
}

const READ_WORDS = /\b(?:read|reads|load|open|see|refer|consult|search|find|grep|glob|list|look|inspect|explore|review|analy[sz]e|check|scan|codebase|file|files)\b/i;

function unused(ctx: SkillContext, patterns: ToolPattern[], use: BodyUse, scripts: Set<string>): Finding[] {
  const out: Finding[] = [];
  for (const p of patterns) {
    if (p.kind === "any" || p.kind === "mcp" || p.kind === "unknown" || p.kind === "unmapped") continue;
    const t = p.targets;
    let used: boolean;
    if (t.includes("bash")) {
      const calls: CallForMatch[] = use.commands.map((c) => ({ tool: "bash", commandLine: c.text }));
      used =
        calls.some((c) => matchesPattern(c, p)) ||
        use.commands.some((c) => {
          const run = scriptRun(c.text, scripts);
          return run !== null && matchesPattern({ tool: "run_script", commandAlternatives: commandAlternatives(run.rel, run.args) }, p);
        }) ||
        (p.argPattern === undefined && scripts.size > 0);
    } else if (t.includes("write_file")) used = use.writes.length > 0;
    else if (t.includes("webfetch") || t.includes("websearch")) used = use.fetches.length > 0 || /https?:\/\/|\b(?:web|internet|online|search the)\b/i.test(ctx.body);
    else if (t.some((x) => ["read_file", "list_files", "search_files"].includes(x))) used = ctx.files.length > 0 || READ_WORDS.test(ctx.body);
    else continue;
    if (!used) {
      out.push({ ...finding("tools.unused", `allowed-tools grants "${p.raw}" but nothing in the body or the scripts uses it`, "SKILL.md", allowedToolsLine(ctx) ?? 1, p.raw, `Remove "${p.raw}" from allowed-tools, or narrow it to what the skill runs.`), quickFix: { removeTool: p.raw } });
    }
  }
  return out;
}

function allowedToolsLine(ctx: SkillContext): number | null {
  const i = ctx.frontmatterLines.findIndex((l) => /^allowed-tools\s*:/.test(l));
  return i >= 0 ? i + 1 : null;
}
