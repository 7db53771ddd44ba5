import { describe, expect, it } from "vitest";
import type { StreamEvent } from "./types";
import { activatedIn, activeStack, answerOf, costsOf, toSteps, totals } from "./steps-model";

const base = { runId: "r", t: 0, depth: 0 };
const usage = (chars: number) => ({ chars, tokens: Math.ceil(chars / 4) });
const cost = (step: number, s1: number, s2: number, s3: number) => ({ step, stage1: usage(s1), stage2: usage(s2), stage3: usage(s3), other: usage(100) });

const events: StreamEvent[] = [
  { type: "sandbox", mode: "sandboxed", detail: "ok", t: 0 },
  { ...base, type: "model_call", step: 1, cost: cost(1, 400, 0, 0), durationMs: 3, toolCalls: 1 },
  { ...base, type: "skill_selected", skill: "release-notes", reason: "matched release, notes", score: 2 },
  { ...base, type: "tool_call", callId: "c1", tool: "skill", input: { name: "release-notes" } },
  { ...base, type: "skill_activated", skill: "release-notes", layer: "project", digest: "d", allowedTools: ["Read"], via: "skill_tool", baseDir: "/x" },
  { ...base, type: "tool_result", callId: "c1", tool: "skill", ok: true, output: "body", durationMs: 1 },
  { ...base, type: "model_call", step: 2, cost: cost(2, 400, 800, 0), durationMs: 3, toolCalls: 1 },
  { ...base, type: "tool_call", callId: "c2", tool: "run_script", input: { script: "scripts/a.py" } },
  { type: "script_queued", running: 2, limit: 2, waiting: 1, t: 5 },
  { ...base, type: "script_run", callId: "c2", command: ["python3", "/skill/scripts/a.py"], exitCode: 0, stdout: "hi\n", stderr: "", durationMs: 20, sandboxed: true, truncated: false, timedOut: false },
  { ...base, type: "tool_result", callId: "c2", tool: "run_script", ok: true, output: "hi", durationMs: 21 },
  { ...base, type: "tool_call", callId: "c3", tool: "bash", input: { command: "env" } },
  { ...base, type: "tool_result", callId: "c3", tool: "bash", ok: false, output: "refused", refused: { skill: "release-notes", allowed: ["Read"], rule: "allowed-tools" }, durationMs: 0 },
  { ...base, type: "text_delta", text: "Done" },
  { ...base, type: "text_delta", text: " now" },
];

describe("steps model", () => {
  it("groups each tool call with its result, scripts and queue notes, in order", () => {
    const steps = toSteps(events);
    expect(steps.map((s) => s.kind)).toEqual(["sandbox", "model", "selected", "tool", "activated", "model", "tool", "tool"]);
    const script = steps[6] as Extract<(typeof steps)[number], { kind: "tool" }>;
    expect(script.scripts[0]!.stdout).toBe("hi\n");
    expect(script.notes).toEqual([expect.objectContaining({ type: "script_queued", limit: 2 })]);
    const refused = steps[7] as Extract<(typeof steps)[number], { kind: "tool" }>;
    expect(refused.result?.refused?.rule).toBe("allowed-tools");
  });

  it("shows what a model wrote next to its tool calls as a step, not the final answer", () => {
    const steps = toSteps([
      { ...base, type: "text_delta", text: "The request is about a release, " },
      { ...base, type: "text_delta", text: "so I activate release-notes." },
      { ...base, type: "model_call", step: 1, cost: cost(1, 10, 0, 0), durationMs: 1, toolCalls: 1 },
      { ...base, type: "text_delta", text: "Here are the notes." },
      { ...base, type: "model_call", step: 2, cost: cost(2, 10, 0, 0), durationMs: 1, toolCalls: 0 },
    ]);
    expect(steps.map((s) => s.kind)).toEqual(["thought", "model", "model"]);
    expect(steps[0]).toEqual({ kind: "thought", text: "The request is about a release, so I activate release-notes." });
    expect(answerOf([{ ...base, type: "text_delta", text: "thinking" }, { ...base, type: "model_call", step: 1, cost: cost(1, 1, 0, 0), durationMs: 1, toolCalls: 1 }, { ...base, type: "text_delta", text: "answer" }])).toBe("answer");
  });

  it("shows a skill's model switch and its deactivation as steps of their own, carrying the event", () => {
    const model: StreamEvent = { ...base, type: "skill_model", skill: "release-notes", model: "m", used: false, provider: "offline", detail: "no such model" };
    const off: StreamEvent = { ...base, type: "skill_deactivated", skill: "release-notes", reason: "requested" };
    expect(toSteps([model, off])).toEqual([
      { kind: "skill-model", event: model },
      { kind: "deactivated", event: off },
    ]);
  });

  it("streams the answer from deltas until the message arrives; replays the stack", () => {
    expect(answerOf(events)).toBe("Done now");
    expect(answerOf([...events, { ...base, type: "message", text: "Final" }])).toBe("Final");
    expect(activeStack(events)).toEqual(["release-notes"]);
    const ended: StreamEvent[] = [...events, { ...base, type: "skill_deactivated", skill: "release-notes", reason: "run_finished" }];
    expect(activeStack(ended)).toEqual([]);
    expect(activatedIn(ended)).toEqual(["release-notes"]);
  });

  it("adds the stage costs of every model call", () => {
    const t = totals(costsOf(events));
    expect(t.calls).toBe(2);
    expect(t.stage1.chars).toBe(800);
    expect(t.stage2.chars).toBe(800);
    expect(t.stage3.tokens).toBe(0);
  });
});
