"use client";
// One turn's steps, inline and collapsible: the run and its listing, the skill chosen and why, activations,
// tool calls with arguments and results (refusals in a warning style with their rule), script runs with exit
// code, output and time, sandbox status and the script queue.
import type { PlaygroundNote } from "./types";
import { count } from "~/server/domain/plural";
import { useState } from "react";
import { ListingNames } from "./listing-details";
import type { Step } from "./steps-model";
import { useFullListing, useToolOutput, type ListingSource, type TurnSource } from "./turn-details";

const pre = "mt-1 max-h-64 overflow-auto whitespace-pre-wrap break-words rounded bg-zinc-50 p-2 font-mono text-xs dark:bg-zinc-950";
const row = "rounded-md border px-2.5 py-1.5 text-sm";
const plain = `${row} border-zinc-200 dark:border-zinc-800`;
const warn = `${row} border-amber-400 bg-amber-50 text-amber-950 dark:border-amber-600 dark:bg-amber-950/40 dark:text-amber-100`;
const bad = `${row} border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950/40 dark:text-red-100`;
const good = `${row} border-emerald-300 bg-emerald-50 dark:border-emerald-800 dark:bg-emerald-950/30`;

const json = (v: unknown) => {
  try {
    return JSON.stringify(v, null, 2);
  } catch {
    return String(v);
  }
};

function noteText(n: PlaygroundNote): string {
  if (n.type === "sandbox") return `Sandbox: ${n.mode}`;
  if (n.type === "script_queued") return `Queued: ${count(n.running, "script")} running (limit ${n.limit}); waiting for a free slot`;
  return `Waited ${n.waitedMs} ms in the queue for a free script slot`;
}

function Script({ s }: { s: Extract<Step, { kind: "script" }>["event"] }) {
  const ok = s.exitCode === 0 && !s.refused;
  return (
    <details className={ok ? good : bad} data-testid="step-script" open>
      <summary className="cursor-pointer">
        {s.hook ? `Hook ${s.hook} of '${s.skill}': ` : "Script: "}
        <code className="font-mono text-xs">{s.command.join(" ")}</code> exit {s.exitCode ?? "none"} in {s.durationMs} ms
        {s.sandboxed ? " (sandboxed)" : " (NOT sandboxed)"}
        {s.timedOut ? ", timed out" : ""}
        {s.truncated ? ", output truncated" : ""}
      </summary>
      {s.refused && <p className="mt-1">Refused: {s.refused}</p>}
      {s.stdout && <pre className={pre} data-testid="script-stdout">{s.stdout}</pre>}
      {s.stderr && <pre className={`${pre} text-red-700 dark:text-red-300`}>{s.stderr}</pre>}
    </details>
  );
}

/** The run and its listing; a history turn's listing text and names are fetched when the person opens it. */
function RunStep({ e, source }: { e: Extract<Step, { kind: "run" }>["event"]; source: ListingSource | undefined }) {
  const [open, setOpen] = useState(false);
  const l = e.listing;
  const { full, error } = useFullListing(l, source, open);
  return (
    <>
      <details className={plain} data-testid="step-listing" onToggle={(ev) => setOpen(ev.currentTarget.open)}>
        <summary className="cursor-pointer">
          Run started ({e.mode} mode, {e.provider}/{e.model}, step limit {e.stepLimit}): listing of {l.listed} of {l.total} skills, {l.chars} chars / {l.tokens} tokens
          {l.shortened ? `, ${l.shortened} shortened` : ""}
          {l.omitted ? `, ${l.omitted} left out` : ""}
          {l.strategy === "ranked" ? " (ranked for the request)" : ""}
        </summary>
        {l.why && <p className="muted text-xs" data-testid="listing-step-why">{l.why}</p>}
        {/* Drawn once opened: a long chat holds one of these per turn, each with hundreds of names. */}
        {open &&
          (full ? (
            <>
              <ListingNames listing={full} />
              <pre className={pre} data-testid="listing-text">{full.text || "(no skills available)"}</pre>
            </>
          ) : (
            <p className="muted text-xs">{error ? `Could not load the listing: ${error}` : "Loading…"}</p>
          ))}
      </details>
      {/* How the request was routed (meaning search failing, the model's pick): shown without opening the listing. */}
      {e.routing?.map((n) => (
        <p key={n} className="muted text-xs" data-testid="step-routing">
          Routing: {n}
        </p>
      ))}
    </>
  );
}

/** A tool call with its arguments and result; a history turn's long output is fetched when the person opens it. */
function ToolStep({ step, source }: { step: Extract<Step, { kind: "tool" }>; source: TurnSource | undefined }) {
  const { call, result, scripts, notes } = step;
  const refused = result?.refused;
  const [open, setOpen] = useState(!!refused);
  const { output, error } = useToolOutput(result, source, open);
  const cls = refused ? warn : result && !result.ok ? bad : plain;
  return (
    <div className="space-y-1">
      <details className={cls} data-testid={refused ? "step-refused" : "step-tool"} open={!!refused} onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary className="cursor-pointer">
          {refused ? "⚠ Refused: " : "Tool: "}
          <code className="font-mono text-xs">{call.tool}</code>
          {result ? (refused ? "" : result.ok ? ` ok in ${result.durationMs} ms` : " failed") : " running…"}
          {refused && (
            <span>
              {" "}
              — not allowed by &apos;{refused.skill}&apos; ({refused.rule === "script-read" ? "scripts are executed, never read" : `allowed-tools: ${refused.allowed.join(", ") || "none"}`})
            </span>
          )}
        </summary>
        <p className="mt-1 text-xs font-semibold">Arguments</p>
        <pre className={pre}>{json(call.input)}</pre>
        {result && (
          <>
            <p className="mt-1 text-xs font-semibold">Result</p>
            <pre className={pre}>{output ?? (error ? `Could not load the output: ${error}` : "Loading…")}</pre>
          </>
        )}
      </details>
      {notes.map((n, k) => (
        <p key={k} className={`${warn} text-xs`} data-testid="step-queued">
          {noteText(n)}
        </p>
      ))}
      {scripts.map((s, k) => (
        <Script key={k} s={s} />
      ))}
    </div>
  );
}

/** `source`: the session and turn a history turn's on-demand details (its listing) are read from. */
export function StepView({ step, source }: { step: Step; source?: TurnSource | undefined }) {
  switch (step.kind) {
    case "sandbox":
      return (
        <p className="muted text-xs" data-testid="step-sandbox" title={step.detail}>
          Sandbox: <span className={step.mode.startsWith("sandboxed") ? "" : "font-semibold text-amber-700 dark:text-amber-300"}>{step.mode}</span>
        </p>
      );
    case "run":
      return <RunStep e={step.event} source={source && { ...source, ...(step.event.depth > 0 ? { runId: step.event.runId } : {}) }} />;
    case "selected":
      return (
        <details className={plain} data-testid="step-selected" open>
          <summary className="cursor-pointer">
            Chose skill <strong>{step.event.skill}</strong> (score {step.event.score})
          </summary>
          <p className="mt-1 text-xs">{step.event.reason}</p>
        </details>
      );
    case "activated": {
      const e = step.event;
      return (
        <details className={`${row} border-indigo-300 bg-indigo-50 dark:border-indigo-800 dark:bg-indigo-950/40`} data-testid="step-activation">
          <summary className="cursor-pointer">
            Activating &apos;{e.skill}&apos; skill...{e.depth > 0 ? ` (sub-agent of '${e.forkSkill}')` : ""}
          </summary>
          <ul className="mt-1 text-xs">
            <li>layer: {e.layer}</li>
            <li>how: {e.via}</li>
            <li>digest: <code>{e.digest.slice(0, 16)}</code></li>
            <li>allowed-tools: {e.allowedTools ? e.allowedTools.join(", ") || "(none)" : "no restriction"}</li>
          </ul>
        </details>
      );
    }
    case "deactivated":
      return (
        <p className="muted text-xs">
          Skill &apos;{step.event.skill}&apos; deactivated ({step.event.reason.replace("_", " ")})
        </p>
      );
    case "tool":
      return <ToolStep step={step} source={source} />;
    case "script":
      return <Script s={step.event} />;
    case "note":
      return (
        <p className={`${warn} text-xs`} data-testid="step-queued">
          {noteText(step.note)}
        </p>
      );
    case "model": {
      const c = step.event.cost;
      return (
        <p className="muted text-xs" data-testid="step-model">
          Model call {step.event.step} ({step.event.durationMs} ms): stage 1 {c.stage1.tokens} · stage 2 {c.stage2.tokens} · stage 3 {c.stage3.tokens} · other {c.other.tokens} tokens
          {c.reported?.inputTokens !== undefined ? ` (provider reported ${c.reported.inputTokens} in)` : ""}
          {step.event.toolCalls ? `, asked for ${count(step.event.toolCalls, "tool call")}` : ""}
        </p>
      );
    }
    case "thought":
      return (
        <p className={`${plain} whitespace-pre-wrap italic`} data-testid="step-thought">
          Model: {step.text}
        </p>
      );
    case "skill-model":
      return (
        <p className={step.event.used ? plain : bad} data-testid="step-skill-model">
          {step.event.detail}
        </p>
      );
    case "error":
      return (
        <p className={bad} data-testid="step-error">
          {step.message}
        </p>
      );
    case "finished":
      return (
        <p className="muted text-xs" data-testid="step-finished">
          Finished: {step.event.reason.replace("_", " ")} after {count(step.event.steps, "model call")} in {step.event.durationMs} ms
        </p>
      );
  }
}

export function StepList({ steps, source }: { steps: Step[]; source?: TurnSource }) {
  return (
    <div className="space-y-1.5">
      {steps.map((s, k) => (
        <StepView key={k} step={s} source={source} />
      ))}
    </div>
  );
}
