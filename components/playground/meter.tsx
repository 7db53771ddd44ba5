"use client";
// The context meter: per model call, what stage 1 (listing), stage 2 (activated bodies) and stage 3
// (resources and script output) took, as stacked bars, so the saving of progressive disclosure is visible.
import type { StageCost } from "~/server/runtime/agent/types";
import type { CostTotals } from "./steps-model";

const STAGES = [
  { key: "stage1", label: "Stage 1 listing", color: "bg-indigo-500" },
  { key: "stage2", label: "Stage 2 bodies", color: "bg-emerald-500" },
  { key: "stage3", label: "Stage 3 resources", color: "bg-amber-500" },
  { key: "other", label: "Other", color: "bg-zinc-400 dark:bg-zinc-600" },
] as const;

type Parts = Pick<StageCost, "stage1" | "stage2" | "stage3" | "other">;

function Bar({ parts, scale, label, testId }: { parts: Parts; scale: number; label: string; testId?: string }) {
  const total = STAGES.reduce((a, s) => a + parts[s.key].chars, 0);
  return (
    <div data-testid={testId}>
      <div className="flex justify-between text-xs">
        <span>{label}</span>
        <span className="muted">
          {STAGES.slice(0, 3)
            .map((s) => `${parts[s.key].tokens}`)
            .join(" / ")}{" "}
          tok · {total} chars
        </span>
      </div>
      <div className="flex h-3 w-full overflow-hidden rounded bg-zinc-100 dark:bg-zinc-800" title={STAGES.map((s) => `${s.label}: ${parts[s.key].chars} chars, ${parts[s.key].tokens} tokens`).join("\n")}>
        {STAGES.map((s) => (
          <div key={s.key} className={s.color} style={{ width: `${scale > 0 ? (parts[s.key].chars / scale) * 100 : 0}%` }} />
        ))}
      </div>
    </div>
  );
}

export function Legend() {
  return (
    <div className="flex flex-wrap gap-2 text-xs">
      {STAGES.map((s) => (
        <span key={s.key} className="inline-flex items-center gap-1">
          <span className={`inline-block h-2.5 w-2.5 rounded-sm ${s.color}`} />
          {s.label}
        </span>
      ))}
    </div>
  );
}

const sum = (p: Parts) => p.stage1.chars + p.stage2.chars + p.stage3.chars + p.other.chars;

export function ContextMeter({ costs }: { costs: StageCost[] }) {
  if (!costs.length) return <p className="muted text-xs">No model call yet.</p>;
  const scale = Math.max(...costs.map(sum));
  return (
    <div className="space-y-1.5" data-testid="context-meter">
      {costs.map((c) => (
        <Bar key={c.step} parts={c} scale={scale} label={`Call ${c.step}`} testId="meter-call" />
      ))}
    </div>
  );
}

export interface ComparedRun {
  turn: number;
  mode: string;
  totals: CostTotals;
}

/** The same request in different modes: the totals over every model call of each turn, on one scale. */
export function ModeComparison({ runs }: { runs: ComparedRun[] }) {
  if (runs.length < 2) return <p className="muted text-xs">Replay a request in another mode to compare the meters here.</p>;
  const scale = Math.max(...runs.map((r) => sum(r.totals)));
  return (
    <div className="space-y-1.5" data-testid="mode-comparison">
      {runs.map((r) => (
        <Bar key={r.turn} parts={r.totals} scale={scale} label={`Turn ${r.turn}: ${r.mode} (${r.totals.calls} calls)`} testId={`compare-${r.mode}`} />
      ))}
    </div>
  );
}
