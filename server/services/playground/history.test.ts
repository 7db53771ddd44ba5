import { describe, expect, it } from "vitest";
import { toSteps } from "../../../components/playground/steps-model";
import type { ListingInfo } from "../../runtime/agent";
import { historyEvents } from "./history";
import type { StreamEvent } from "./types";

const base = { runId: "r", t: 0, depth: 0 };
const usage = { chars: 40, tokens: 10 };
const cost = (step: number) => ({ step, stage1: usage, stage2: usage, stage3: usage, other: usage });
const names = (n: number, prefix: string) => Array.from({ length: n }, (_, k) => `${prefix}-${k}`);
const listing: ListingInfo = {
  text: "<available_skills>…</available_skills>",
  chars: 8000,
  tokens: 2000,
  budgetChars: 8000,
  total: 600,
  listed: 80,
  shortened: 10,
  omitted: 520,
  omittedNames: names(520, "left-out"),
  strategy: "ranked",
  described: names(50, "described"),
  nameOnly: names(30, "name-only"),
  shortenedNames: names(10, "described"),
  why: "The best-ranked 50 fit with a description.",
};
const ANSWER = "Here are the release notes.";
const SKILL_MD = `# Release notes\n\n${"Write each change as one sentence. ".repeat(40)}`;

// A turn as it is stored: the model's reason next to a tool call, a long skill output, a refusal, then the answer
// streamed and sent as the final message.
const turn: StreamEvent[] = [
  { type: "sandbox", mode: "sandboxed", detail: "ok", t: 0 },
  { ...base, type: "run_started", mode: "tool", provider: "offline", model: "m", request: "draft the release notes", listing, systemPromptChars: 900, stepLimit: 12 },
  { ...base, type: "text_delta", text: "The request is about a release." },
  { ...base, type: "model_call", step: 1, cost: cost(1), durationMs: 3, toolCalls: 2 },
  { ...base, type: "tool_call", callId: "c1", tool: "skill", input: { name: "release-notes" } },
  { ...base, type: "tool_result", callId: "c1", tool: "skill", ok: true, output: SKILL_MD, durationMs: 1 },
  { ...base, type: "tool_call", callId: "c2", tool: "bash", input: { command: "env" } },
  { ...base, type: "tool_result", callId: "c2", tool: "bash", ok: false, output: `refused: ${"x".repeat(600)}`, refused: { skill: "release-notes", allowed: ["Read"], rule: "allowed-tools" }, durationMs: 0 },
  { ...base, type: "text_delta", text: ANSWER },
  { ...base, type: "model_call", step: 2, cost: cost(2), durationMs: 3, toolCalls: 0 },
  { ...base, type: "message", text: ANSWER },
  { ...base, type: "run_finished", reason: "answered", costs: [cost(1), cost(2)], steps: 2, durationMs: 9 },
];

describe("a turn as the history sends it", () => {
  it("shows the same steps, without the listing's text and names, the long tool output and the answer repeated", () => {
    const sent = historyEvents(turn, ANSWER);
    expect(toSteps(sent).map((s) => s.kind)).toEqual(toSteps(turn).map((s) => s.kind));
    expect(toSteps(sent).find((s) => s.kind === "thought")).toEqual({ kind: "thought", text: "The request is about a release." });
    const started = sent.find((e) => e.type === "run_started");
    expect(started?.listing).toEqual({ chars: 8000, tokens: 2000, budgetChars: 8000, total: 600, listed: 80, shortened: 10, omitted: 520, strategy: "ranked", why: listing.why, detailsOmitted: true, describedCount: 50, nameOnlyCount: 30 });
    expect(sent.find((e) => e.type === "tool_result" && e.callId === "c1")).toMatchObject({ outputChars: SKILL_MD.length });
    expect(sent.find((e) => e.type === "tool_result" && e.callId === "c1")).not.toHaveProperty("output");
    // A refusal is shown open at once: its output stays.
    expect(sent.find((e) => e.type === "tool_result" && e.callId === "c2")).toHaveProperty("output");
    expect(sent.some((e) => e.type === "message" || (e.type === "text_delta" && e.text === ANSWER))).toBe(false);
    expect(sent.find((e) => e.type === "run_finished")).not.toHaveProperty("costs");
    expect(JSON.stringify(sent).length).toBeLessThan(JSON.stringify(turn).length / 5);
  });

  it("keeps a stopped turn's streamed text and a message that is not the stored answer", () => {
    const stopped: StreamEvent[] = [{ ...base, type: "text_delta", text: "Half an ans" }, { ...base, type: "run_finished", reason: "aborted", costs: [], steps: 1, durationMs: 5 }];
    expect(historyEvents(stopped, "Half an ans\n\n(Stopped mid-answer.)")[0]).toEqual(stopped[0]);
    const sub: StreamEvent = { ...base, depth: 1, forkSkill: "review", type: "message", text: ANSWER };
    expect(historyEvents([sub], ANSWER)).toEqual([sub]);
  });
});
