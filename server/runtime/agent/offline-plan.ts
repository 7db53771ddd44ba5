// What the offline provider does once a skill is active, read off the skill's body: the references the request
// names, then, in the body's order, the commands of its shell blocks, the inline-code runs of its own scripts and
// the steps its prose spells out (./offline-prose.ts). Same body and request, same plan.
import fs from "node:fs";
import path from "node:path";
import { isInside } from "../registry/layers";
import { terms } from "../search/text";
import { proseSteps } from "./offline-prose";
import type { DisclosureMode } from "./types";
import { inScriptFolder, SCRIPT_FOLDERS } from "../../domain/skill-protocol";

export interface PlannedAction {
  kind: "read" | "script" | "bash" | "write";
  tool: string;
  input: Record<string, unknown>;
  label: string;
}

/** Splits a command line into words, honouring simple single and double quotes. */
function words(line: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line))) out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (m[2] ?? m[3]!));
  return out;
}

/** A command of the body and where it stands (its block's or span's offset), to keep the body's order. */
interface BodyCommand {
  at: number;
  command: string;
  inline?: true;
}

/** Commands of the body's bash code blocks, in order (comments and blank lines skipped, `\` continuations joined). */
export function bashCommands(body: string): string[] {
  return fencedCommands(body).map((c) => c.command);
}

function fencedCommands(body: string): BodyCommand[] {
  const out: BodyCommand[] = [];
  const re = /```(?:bash|sh|shell|console)[^\n]*\n([\s\S]*?)```/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(body))) {
    let pending = "";
    for (const raw of m[1]!.split("\n")) {
      let line = raw.trim().replace(/^\$\s+/, "");
      if (!pending && (!line || line.startsWith("#"))) continue;
      if (line.endsWith("\\")) {
        pending += line.slice(0, -1).trimEnd() + " ";
        continue;
      }
      line = (pending + line).trim();
      pending = "";
      if (line) out.push({ at: m.index, command: line.replace(/\{base_path\}\//g, "") });
    }
  }
  return out;
}

const INTERPRETER = /^(python3?|bash|sh|node)$/;
const SCRIPT_PATH = new RegExp(`^(?:${SCRIPT_FOLDERS.join("|")})/[^\\s]+$`, "i");
/** Shell syntax a plain script run has none of: a span holding it is prose about shell, not a run to copy. */
const SHELL_OPERATOR = /^(?:\||\|\||&&?|;|\d?>>?|<|\d?>&\d)$/;

/**
 * Inline-code commands (`scripts/run.sh`, `python3 scripts/fill.py --list form.pdf`) that run one of the skill's own
 * scripts: an optional interpreter, then a path under scripts/ that `isScript` says the skill holds, then plain
 * arguments. Anything else in backticks (a file name, a snippet, a script the skill does not have) is prose: only
 * a run the body spells out is copied, never code just because it is quoted. Fenced blocks are left to
 * fencedCommands.
 */
export function inlineScriptCommands(body: string, isScript: (rel: string) => boolean): string[] {
  return inlineCommands(body, isScript).map((c) => c.command);
}

function inlineCommands(body: string, isScript: (rel: string) => boolean): BodyCommand[] {
  // Fenced blocks blanked out (same length, so offsets hold): their backticks are not inline code.
  const prose = body.replace(/```[\s\S]*?(?:```|$)|~~~[\s\S]*?(?:~~~|$)/g, (block) => block.replace(/[^\n]/g, " "));
  const out: BodyCommand[] = [];
  const re = /(?<!`)(`{1,2})(?!`)([^`\n]+?)(?<!`)\1(?!`)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(prose))) {
    const text = m[2]!.trim().replace(/^\$\s+/, "").replace(/\{base_path\}\//g, "");
    const w = words(text);
    const interp = w[0] && INTERPRETER.test(w[0]) ? 1 : 0;
    const script = w[interp]?.replace(/^\.\//, "");
    if (!script || !SCRIPT_PATH.test(script) || script.split("/").includes("..")) continue;
    if (w.slice(interp + 1).some((a) => SHELL_OPERATOR.test(a)) || !isScript(script)) continue;
    out.push({ at: m.index, command: text, inline: true });
  }
  return out;
}

/**
 * Whether a path relative to the skill folder is a regular file of the skill, by real path against the skill's real
 * path (a link leaving the skill is not its file). A run or read itself is still confined by the executor.
 */
export function fileOf(baseDir: string): (rel: string) => boolean {
  let realBase: string | null = null;
  return (rel) => {
    try {
      realBase ??= fs.realpathSync(baseDir);
      const real = fs.realpathSync(path.join(baseDir, rel));
      return isInside(realBase, real) && fs.statSync(real).isFile();
    } catch {
      return false;
    }
  };
}

/** Relative Markdown links of the body: [text](target). URLs and anchors are not files. */
export function bodyLinks(body: string): { text: string; target: string }[] {
  const out: { text: string; target: string }[] = [];
  const re = /\[([^\]]*)\]\(([^)\s]+)\)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(body))) {
    const target = m[2]!.replace(/\{base_path\}\//g, "");
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#") || target.startsWith("/")) continue;
    if (!out.some((l) => l.target === target)) out.push({ text: m[1]!, target });
  }
  return out;
}

/**
 * The plan a body implies for a request: named references first, then the body's steps in its order: the commands
 * of its bash blocks, the steps its prose spells out (./offline-prose.ts: inline commands, writes, reads) and, given
 * `isFile` (which paths are files of the skill), its inline-code runs of its own scripts. An inline command
 * repeating one already planned, or naming alone a script a command already runs, adds nothing.
 */
export function planActions(body: string, request: string, mode: DisclosureMode, isFile?: (rel: string) => boolean): PlannedAction[] {
  const wanted = new Set(terms(request));
  const readTool = mode === "orchestrated" ? "skills.read" : "read_file";
  const plan: PlannedAction[] = [];
  const read = new Set<string>();
  for (const link of bodyLinks(body)) {
    if (inScriptFolder(link.target)) continue; // scripts are run, never read
    const named = terms(path.basename(link.target).replace(/\.[a-z0-9]+$/i, "").replace(/[-_]/g, " "));
    if (!named.some((t) => wanted.has(t))) continue;
    read.add(link.target);
    plan.push({ kind: "read", tool: readTool, input: { path: link.target }, label: `read ${link.target}` });
  }
  const prose = proseSteps(body, request, isFile);
  const fenced = fencedCommands(body);
  const inline = isFile ? inlineCommands(body, isFile) : [];
  const said = prose.filter((p) => p.kind === "bash").map((p): BodyCommand => ({ at: p.at, command: p.text, inline: true }));
  const commands = [...fenced, ...inline, ...said].sort((a, b) => a.at - b.at);
  const steps: { at: number; action: PlannedAction }[] = [];
  // script -> the argument lists planned for it, and whether from inline code. A repeat is dropped when either
  // side is inline (prose naming again what a block runs, or the other way round); blocks repeat as written.
  // A script named alone in prose that a fuller command of the body runs anywhere (before or after) is that one.
  const ran = new Map<string, { args: string; inline: boolean }[]>();
  const blockLines = new Set(fenced.map((c) => c.command));
  const saidLines = new Set<string>();
  const parsed = commands.map(({ at, command, inline: isInline }) => {
    const w = words(command);
    const interp = w[0] && INTERPRETER.test(w[0]) ? 1 : 0;
    const script = w[interp]?.replace(/^\.\//, "");
    return { at, command, isInline, script: script && SCRIPT_PATH.test(script) ? script : null, args: w.slice(interp + 1) };
  });
  const runFully = new Set(parsed.filter((c) => c.script && (!c.isInline || c.args.length > 0)).map((c) => c.script));
  for (const { at, command: cmd, isInline, script, args: written } of parsed) {
    let args = written;
    if (script) {
      const key = args.join("\0");
      const before = ran.get(script) ?? [];
      if (isInline && args.length === 0 && runFully.has(script)) continue;
      if (before.some((b) => b.args === key && (b.inline || isInline))) continue;
      ran.set(script, [...before, { args: key, inline: isInline === true }]);
      args = args.map((a) => filledPlaceholder(a, request));
      steps.push({
        at,
        action: {
          kind: "script",
          tool: mode === "orchestrated" ? "skills.run_script" : "run_script",
          input: mode === "orchestrated" ? { path: script, args } : { script, args },
          label: `ran ${[script, ...args].join(" ")}`,
        },
      });
    } else {
      if (isInline && (blockLines.has(cmd) || saidLines.has(cmd))) continue;
      if (isInline) saidLines.add(cmd);
      steps.push({ at, action: { kind: "bash", tool: "bash", input: { command: cmd }, label: `ran \`${cmd}\`` } });
    }
  }
  for (const p of prose) {
    if (p.kind === "read" && !read.has(p.text)) {
      read.add(p.text);
      steps.push({ at: p.at, action: { kind: "read", tool: readTool, input: { path: p.text }, label: `read ${p.text}` } });
    } else if (p.kind === "write") {
      // The content is what the steps before it gave, filled in when the write is due (offline.ts): here, the
      // instruction itself stands in.
      steps.push({ at: p.at, action: { kind: "write", tool: "write_file", input: { path: p.text, content: p.line }, label: `wrote ${p.text}` } });
    }
  }
  plan.push(...steps.sort((a, b) => a.at - b.at).map((s) => s.action));
  return plan;
}

/**
 * A placeholder argument such as `<file.csv>` filled with the file of that kind the request names ("summarize
 * data/sales.csv"), the first one; anything else as written. What a person would type, and no more.
 */
function filledPlaceholder(arg: string, request: string): string {
  const ext = /^<[^<>\s]*\.([a-z0-9]+)>$/i.exec(arg)?.[1];
  if (!ext) return arg;
  const named = request
    .split(/\s+/)
    .map((w) => w.replace(/^["'`(]+|["'`),;:!?]+$/g, "").replace(/\.$/, ""))
    .find((w) => w.toLowerCase().endsWith("." + ext.toLowerCase()) && w.length > ext.length + 1 && !/[<>|;&$`]/.test(w));
  return named ?? arg;
}

