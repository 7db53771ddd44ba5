// The offline provider: deterministic, rule-based, no key. It exists so every mode works on a fresh machine
// and in tests, and it says so in every answer. Each call it looks at this turn's messages and does the next
// thing: pick the skill the one ranking puts first (explaining why, or abstaining when no skill serves the
// request: server/runtime/search), activate it the way the mode requires, read the
// references the body links to when the request names them, run the commands the body shows in bash blocks and
// the inline-code commands that run one of the skill's own scripts (through the executor, so restrictions and the
// sandbox apply), then answer with what it did.
import fs from "node:fs";
import path from "node:path";
import { isInside } from "../registry/layers";
import { SkillSearch } from "../search/engine";
import { terms } from "../search/text";
import type { ChatMessage, DisclosureMode, ModelHints, ModelProvider, ModelRequest, ModelResponse, ModelToolCall } from "./types";
import { count } from "../../domain/plural";
import { inScriptFolder, SCRIPT_FOLDERS } from "../../domain/skill-protocol";

export const OFFLINE_MODEL = "offline-rules-1";
export const OFFLINE_NOTICE = "[Offline provider: a deterministic, rule-based stand-in, not a language model.]";

interface Done {
  call: ModelToolCall;
  result?: Extract<ChatMessage, { role: "tool" }>;
}

export interface PlannedAction {
  kind: "read" | "script" | "bash";
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
 * path (a link leaving the skill is not its script). The run itself is still confined by the executor.
 */
function scriptOf(baseDir: string): (rel: string) => boolean {
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
 * The plan a body implies for a request: named references first, then the commands in the body's order: its bash
 * blocks' and, given `isScript` (which scripts the skill holds), its inline-code runs of those scripts. An inline
 * run repeating a command already planned, or naming alone a script a command already runs, adds nothing.
 */
export function planActions(body: string, request: string, mode: DisclosureMode, isScript?: (rel: string) => boolean): PlannedAction[] {
  const wanted = new Set(terms(request));
  const plan: PlannedAction[] = [];
  for (const link of bodyLinks(body)) {
    if (inScriptFolder(link.target)) continue; // scripts are run, never read
    const named = terms(path.basename(link.target).replace(/\.[a-z0-9]+$/i, "").replace(/[-_]/g, " "));
    if (!named.some((t) => wanted.has(t))) continue;
    plan.push({
      kind: "read",
      tool: mode === "orchestrated" ? "skills.read" : "read_file",
      input: { path: link.target },
      label: `read ${link.target}`,
    });
  }
  const fenced = fencedCommands(body);
  const inline = isScript ? inlineCommands(body, isScript) : [];
  const commands = inline.length ? [...fenced, ...inline].sort((a, b) => a.at - b.at) : fenced;
  // script -> the argument lists planned for it, and whether from inline code. A repeat is dropped when either
  // side is inline (prose naming again what a block runs, or the other way round); blocks repeat as written.
  // A script named alone in prose that a fuller command of the body runs anywhere (before or after) is that one.
  const ran = new Map<string, { args: string; inline: boolean }[]>();
  const parsed = commands.map(({ command, inline: isInline }) => {
    const w = words(command);
    const interp = w[0] && INTERPRETER.test(w[0]) ? 1 : 0;
    const script = w[interp]?.replace(/^\.\//, "");
    return { command, isInline, script: script && SCRIPT_PATH.test(script) ? script : null, args: w.slice(interp + 1) };
  });
  const runFully = new Set(parsed.filter((c) => c.script && (!c.isInline || c.args.length > 0)).map((c) => c.script));
  for (const { command: cmd, isInline, script, args: written } of parsed) {
    let args = written;
    if (script) {
      const key = args.join("\0");
      const before = ran.get(script) ?? [];
      if (isInline && args.length === 0 && runFully.has(script)) continue;
      if (before.some((b) => b.args === key && (b.inline || isInline))) continue;
      ran.set(script, [...before, { args: key, inline: isInline === true }]);
      args = args.map((a) => filledPlaceholder(a, request));
      plan.push({
        kind: "script",
        tool: mode === "orchestrated" ? "skills.run_script" : "run_script",
        input: mode === "orchestrated" ? { path: script, args } : { script, args },
        label: `ran ${[script, ...args].join(" ")}`,
      });
    } else {
      plan.push({ kind: "bash", tool: "bash", input: { command: cmd }, label: `ran \`${cmd}\`` });
    }
  }
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

function turnOf(messages: ChatMessage[]): { done: Done[]; assistantCalls: number } {
  let start = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === "user") {
      start = i + 1;
      break;
    }
  }
  const done: Done[] = [];
  let assistantCalls = 0;
  const results = new Map<string, Extract<ChatMessage, { role: "tool" }>>();
  for (const m of messages.slice(start)) if (m.role === "tool") results.set(m.callId, m);
  for (const m of messages.slice(start)) {
    if (m.role !== "assistant") continue;
    assistantCalls++;
    for (const c of m.toolCalls ?? []) done.push({ call: c, ...(results.has(c.id) ? { result: results.get(c.id)! } : {}) });
  }
  return { done, assistantCalls };
}

function clip(text: string, max: number): string {
  const t = text.trim();
  return t.length > max ? t.slice(0, max) + " …" : t;
}

function isActivation(mode: DisclosureMode, call: ModelToolCall, locations: Set<string>): string | null {
  const input = (call.input ?? {}) as Record<string, unknown>;
  if (mode === "tool" && call.name === "skill" && (input.action ?? "activate") === "activate") return String(input.name ?? "");
  if (mode === "prompt" && call.name === "read_file" && typeof input.path === "string" && locations.has(input.path)) return input.path;
  if (mode === "orchestrated" && call.name === "skills.load") return String((input.names as string[] | undefined)?.[0] ?? "");
  return null;
}

function activationCall(mode: DisclosureMode, skill: { name: string; location: string }): Pick<ModelToolCall, "name" | "input"> {
  if (mode === "tool") return { name: "skill", input: { name: skill.name } };
  if (mode === "prompt") return { name: "read_file", input: { path: skill.location } };
  return { name: "skills.load", input: { names: [skill.name], mode: "replace" } };
}

/** The ranking the loop computed, or (called without one) the one ranking over the listed skills' names and descriptions. */
function rankingOf(hints: ModelHints): NonNullable<ModelHints["ranking"]> {
  if (hints.ranking) return hints.ranking;
  const r = SkillSearch.fromText(hints.skills).search(hints.request, { limit: 5 });
  const at = new Map(hints.skills.map((s) => [s.name, s.location]));
  return { hits: r.hits.map((h) => ({ name: h.name, description: h.description, location: at.get(h.name) ?? "", score: h.score, confidence: h.confidence, why: h.why })), abstain: r.abstain, ...(r.reason ? { reason: r.reason } : {}), searched: r.searched };
}

const HOW: Record<DisclosureMode, string> = {
  tool: "with the skill tool",
  prompt: "by reading its SKILL.md with read_file",
  orchestrated: "with skills.load",
};

export class OfflineProvider implements ModelProvider {
  readonly name = "offline";
  readonly model = OFFLINE_MODEL;
  readonly contextTokens = 200_000;

  async complete(req: ModelRequest): Promise<ModelResponse> {
    if (req.signal?.aborted) throw req.signal.reason ?? new Error("aborted");
    const { hints } = req;
    const { done, assistantCalls } = turnOf(req.messages);
    const callId = (n = 0) => `offline-${assistantCalls + 1}-${n}`;
    const locations = new Set(hints.skills.map((s) => s.location));
    const lines = [OFFLINE_NOTICE];

    // 1. Which skill, and is it active?
    let selected = hints.forkSkill;
    let activation: Done | undefined;
    if (!selected) {
      activation = done.find((d) => isActivation(hints.mode, d.call, locations) !== null);
      if (!activation) {
        const ranking = rankingOf(hints);
        const best = ranking.hits[0];
        if (!best || ranking.abstain) {
          const why = ranking.reason ?? "no skill's text contains any word of the request";
          const text = `${OFFLINE_NOTICE}\nNo available skill serves the request "${clip(hints.request, 200)}" (${ranking.searched} skills ranked: ${why}), so I did not activate any. A language model provider (openai or anthropic) can answer requests that need no skill.`;
          return { text, toolCalls: [] };
        }
        const runnerUp = ranking.hits[1];
        const reason =
          `'${best.name}' ranked first of ${count(ranking.searched, "skill")} (score ${best.score}): ${best.why}` +
          (runnerUp ? `; next best '${runnerUp.name}' (score ${runnerUp.score}): ${runnerUp.why}` : "") +
          `. Activating it ${HOW[hints.mode]}.`;
        return {
          text: "",
          toolCalls: [{ id: callId(), ...activationCall(hints.mode, best) }],
          selection: { skill: best.name, reason, score: best.score },
        };
      }
      const target = isActivation(hints.mode, activation.call, locations)!;
      selected = hints.mode === "prompt" ? hints.skills.find((s) => s.location === target)?.name ?? target : target;
      if (!activation.result) return { text: `${OFFLINE_NOTICE}\nActivating '${selected}' gave no result.`, toolCalls: [] };
      if (activation.result.isError) {
        return { text: `${OFFLINE_NOTICE}\nI could not activate skill '${selected}': ${clip(activation.result.content, 600)}`, toolCalls: [] };
      }
      if (activation.result.content.includes("(context: fork)")) {
        return { text: `${OFFLINE_NOTICE}\nSkill '${selected}' ran in a sub-agent of its own. ${clip(activation.result.content, 4000)}`, toolCalls: [] };
      }
      lines.push(`I chose the skill '${selected}' and activated it ${HOW[hints.mode]}.`);
    } else {
      lines.push(`I am running the skill '${selected}' in its own context (context: fork), without the parent conversation.`);
    }

    // 2. Follow the body: next planned action, or answer.
    const body = hints.active.find((a) => a.name === selected)?.body;
    if (body === undefined) return { text: `${lines.join("\n")}\nThe skill '${selected}' is not active any more, so I stopped.`, toolCalls: [] };
    const baseDir = hints.active.find((a) => a.name === selected)?.baseDir;
    const plan = planActions(body, hints.request, hints.mode, baseDir ? scriptOf(baseDir) : undefined);
    const after = activation ? done.slice(done.indexOf(activation) + 1) : done;
    const next = plan[after.length];
    if (next) return { text: "", toolCalls: [{ id: callId(), name: next.tool, input: next.input }] };

    if (!plan.length) lines.push("Its instructions name no reference for this request and show no command to run, so there was nothing to execute.");
    for (let k = 0; k < after.length; k++) {
      const d = after[k]!;
      const label = plan[k]?.label ?? `called ${d.call.name}`;
      const r = d.result;
      if (!r) lines.push(`- ${label}: no result`);
      else if (r.isError) lines.push(`- ${label}: refused or failed: ${clip(r.content, 500)}`);
      else lines.push(`- ${label}:\n${clip(r.content, 1500)}`);
    }
    const text = lines.join("\n");
    req.onTextDelta?.(text);
    return { text, toolCalls: [] };
  }
}
