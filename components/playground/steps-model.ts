// Turns a turn's event stream (live or persisted) into what the chat shows: steps in order, each tool call
// with its result and the scripts it ran, the final answer, the active stack, the listing and the costs.
import type { AgentEvent, ListingInfo, StageCost } from "~/server/runtime/agent/types";
import type { ListingSummary, PlaygroundNote, ShownEvent } from "./types";

// A live turn's events are complete; a history turn's listing comes without its text and names (ListingSummary).
type Ev<T extends AgentEvent["type"]> = Extract<ShownEvent, { type: T }>;

export type Step =
  | { kind: "sandbox"; mode: string; detail: string }
  | { kind: "run"; event: Ev<"run_started"> }
  | { kind: "selected"; event: Ev<"skill_selected"> }
  | { kind: "activated"; event: Ev<"skill_activated"> }
  | { kind: "deactivated"; event: Ev<"skill_deactivated"> }
  /** A skill's `model` field: the turn switched to it, or says why it could not. */
  | { kind: "skill-model"; event: Ev<"skill_model"> }
  | { kind: "tool"; call: Ev<"tool_call">; result?: Ev<"tool_result">; scripts: Ev<"script_run">[]; notes: PlaygroundNote[] }
  | { kind: "script"; event: Ev<"script_run"> }
  | { kind: "note"; note: PlaygroundNote }
  | { kind: "model"; event: Ev<"model_call"> }
  /** What the model wrote next to its tool calls (a real model's reasons); the final answer is not a step. */
  | { kind: "thought"; text: string }
  | { kind: "error"; message: string }
  | { kind: "finished"; event: Ev<"run_finished"> };

const isNote = (e: ShownEvent): e is PlaygroundNote & { t: number } => e.type === "sandbox" || e.type === "script_queued" || e.type === "script_waited";

/** Events that are a step of their own, unchanged: the step kind each one becomes. */
const SHOWN_AS_IS = {
  run_started: "run",
  skill_selected: "selected",
  skill_activated: "activated",
  skill_deactivated: "deactivated",
  skill_model: "skill-model",
} as const satisfies Partial<Record<AgentEvent["type"], Step["kind"]>>;
const isShownAsIs = (e: ShownEvent): e is Ev<keyof typeof SHOWN_AS_IS> => Object.hasOwn(SHOWN_AS_IS, e.type);

export function toSteps(events: ShownEvent[]): Step[] {
  const steps: Step[] = [];
  const tools = new Map<string, Extract<Step, { kind: "tool" }>>();
  let open: Extract<Step, { kind: "tool" }> | undefined;
  const said = new Map<number, string>(); // text streamed during the model call in progress, per depth
  for (const e of events) {
    if (isNote(e)) {
      if (e.type === "sandbox") steps.push({ kind: "sandbox", mode: e.mode, detail: e.detail });
      else if (open && !open.result) open.notes.push(e);
      else steps.push({ kind: "note", note: e });
      continue;
    }
    if (isShownAsIs(e)) {
      // The kind follows from the event type (the table above); TypeScript cannot pair the two unions itself.
      steps.push({ kind: SHOWN_AS_IS[e.type], event: e } as Step);
      continue;
    }
    switch (e.type) {
      case "tool_call": {
        const step = { kind: "tool" as const, call: e, scripts: [], notes: [] };
        tools.set(`${e.depth}:${e.callId}`, step);
        open = step;
        steps.push(step);
        break;
      }
      case "tool_result": {
        const step = tools.get(`${e.depth}:${e.callId}`);
        if (step) step.result = e;
        break;
      }
      case "script_run": {
        const step = e.callId ? tools.get(`${e.depth}:${e.callId}`) : undefined;
        if (step) step.scripts.push(e);
        else steps.push({ kind: "script", event: e });
        break;
      }
      case "text_delta":
        said.set(e.depth, (said.get(e.depth) ?? "") + e.text);
        break;
      case "model_call": {
        const text = said.get(e.depth)?.trim();
        said.delete(e.depth);
        if (text && e.toolCalls > 0) steps.push({ kind: "thought", text });
        steps.push({ kind: "model", event: e });
        break;
      }
      case "error":
        steps.push({ kind: "error", message: e.message });
        break;
      case "run_finished":
        if (e.depth === 0) steps.push({ kind: "finished", event: e });
        break;
      default:
        break;
    }
  }
  return steps;
}

/** The answer so far: the final message when there is one, else the streamed text. */
export function answerOf(events: ShownEvent[]): string {
  const msg = [...events].reverse().find((e): e is Ev<"message"> => e.type === "message" && e.depth === 0);
  if (msg) return msg.text;
  // Text of the model call in progress only: what earlier calls wrote next to tool calls is a step, not the answer.
  let text = "";
  for (const e of events) {
    if (e.type === "model_call" && e.depth === 0) text = "";
    else if (e.type === "text_delta" && e.depth === 0) text += e.text;
  }
  return text;
}

/** Skills active right now (bottom first), replaying activations and deactivations of the main agent. */
export function activeStack(events: ShownEvent[]): string[] {
  const stack: string[] = [];
  for (const e of events) {
    if (e.type === "skill_activated" && e.depth === 0 && !stack.includes(e.skill)) stack.push(e.skill);
    if (e.type === "skill_deactivated" && e.depth === 0) {
      const i = stack.lastIndexOf(e.skill);
      if (i >= 0) stack.splice(i, 1);
    }
  }
  return stack;
}

/** Skills the turn activated, in order. */
export function activatedIn(events: ShownEvent[]): string[] {
  const out: string[] = [];
  for (const e of events) if (e.type === "skill_activated" && !out.includes(e.skill)) out.push(e.skill);
  return out;
}

export function listingOf(events: ShownEvent[]): ((ListingInfo | ListingSummary) & { mode: string }) | null {
  const e = events.find((x): x is Ev<"run_started"> => x.type === "run_started" && x.depth === 0);
  return e ? { ...e.listing, mode: e.mode } : null;
}

/** Per model call of the main agent, in order. */
export function costsOf(events: ShownEvent[]): StageCost[] {
  return events.filter((e): e is Ev<"model_call"> => e.type === "model_call" && e.depth === 0).map((e) => e.cost);
}

export interface CostTotals {
  stage1: { chars: number; tokens: number };
  stage2: { chars: number; tokens: number };
  stage3: { chars: number; tokens: number };
  other: { chars: number; tokens: number };
  calls: number;
}

export function totals(costs: StageCost[]): CostTotals {
  const zero = () => ({ chars: 0, tokens: 0 });
  const t: CostTotals = { stage1: zero(), stage2: zero(), stage3: zero(), other: zero(), calls: costs.length };
  for (const c of costs) {
    for (const k of ["stage1", "stage2", "stage3", "other"] as const) {
      t[k].chars += c[k].chars;
      t[k].tokens += c[k].tokens;
    }
  }
  return t;
}
