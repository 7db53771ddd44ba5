// The offline provider: deterministic, rule-based, no key. It exists so every mode works on a fresh machine
// and in tests, and it says so in every answer. Each call it looks at this turn's messages and does the next
// thing: pick the skill the one ranking puts first (explaining why, or abstaining when no skill serves the
// request: server/runtime/search), activate it the way the mode requires, then follow the body as a model would:
// the steps ./offline-plan.ts reads off it (references, commands, writes), one tool call each, through the
// executor, so the skill's allowed-tools refuse what they do not permit and the sandbox runs what they do; then
// answer with what it did.
import { SkillSearch } from "../search/engine";
import { fileOf, planActions } from "./offline-plan";
import type { ChatMessage, DisclosureMode, ModelHints, ModelProvider, ModelRequest, ModelResponse, ModelToolCall } from "./types";
import { count } from "../../domain/plural";

export const OFFLINE_MODEL = "offline-rules-1";
export const OFFLINE_NOTICE = "[Offline provider: a deterministic, rule-based stand-in, not a language model.]";
/**
 * Steps of a body followed in one run at most: with the activation and the answer it stays under the loop's
 * default step limit (12), so a long body ends in an answer that says what was left, not in the limit.
 */
export const MAX_OFFLINE_STEPS = 8;

interface Done {
  call: ModelToolCall;
  result?: Extract<ChatMessage, { role: "tool" }>;
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

/** What a write step puts in its file: the last thing a step gave (as a model writes what it found), else the instruction. */
function written(after: Done[], instruction: unknown): string {
  const last = [...after].reverse().find((d) => d.result && !d.result.isError)?.result?.content;
  return last ?? String(instruction);
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
    const whole = planActions(body, hints.request, hints.mode, baseDir ? fileOf(baseDir) : undefined);
    const plan = whole.slice(0, MAX_OFFLINE_STEPS);
    const after = activation ? done.slice(done.indexOf(activation) + 1) : done;
    const next = plan[after.length];
    if (next) return { text: "", toolCalls: [{ id: callId(), name: next.tool, input: next.kind === "write" ? { ...next.input, content: written(after, next.input.content) } : next.input }] };

    if (!plan.length) lines.push("Its instructions name no reference for this request and show no command to run, so there was nothing to execute.");
    else lines.push(`I followed its instructions: ${count(plan.length, "step")}, each a tool call under the skill's allowed-tools.`);
    for (let k = 0; k < after.length; k++) {
      const d = after[k]!;
      const label = plan[k]?.label ?? `called ${d.call.name}`;
      const r = d.result;
      if (!r) lines.push(`- ${label}: no result`);
      else if (r.isError) lines.push(`- ${label}: refused or failed: ${clip(r.content, 500)}`);
      else lines.push(`- ${label}:\n${clip(r.content, 1500)}`);
    }
    if (whole.length > plan.length) lines.push(`The body names ${count(whole.length - plan.length, "more step")}; the offline provider follows at most ${MAX_OFFLINE_STEPS} in one run, so it stopped there.`);
    const text = lines.join("\n");
    req.onTextDelta?.(text);
    return { text, toolCalls: [] };
  }
}
