// F1 over this skill's runs, oldest to newest, as a small line; a dot where SKILL.md changed between runs.
import type { EvalRunSummary } from "./types";
import { Section } from "~/components/shell/section";
import { count } from "~/server/domain/plural";
import { Time } from "~/components/shell/time";

export function HistoryChart({ runs, selected, onSelect }: { runs: EvalRunSummary[]; selected: number | null; onSelect: (id: number) => void }) {
  const done = [...runs].filter((r) => r.status === "done").reverse();
  if (!done.length) return <p className="muted text-sm">No finished runs yet.</p>;
  const w = 320;
  const h = 80;
  const x = (i: number) => (done.length === 1 ? w / 2 : 10 + (i * (w - 20)) / (done.length - 1));
  const y = (f1: number | null) => h - 10 - (f1 ?? 0) * (h - 20);
  return (
    <Section label="Run history" title="History">
      <svg width={w} height={h} role="img" aria-label={`F1 over ${count(done.length, "run")}`} data-testid="history-chart" className="overflow-visible">
        <polyline fill="none" stroke="currentColor" strokeOpacity={0.5} points={done.map((r, i) => `${x(i)},${y(r.f1)}`).join(" ")} />
        {done.map((r, i) => (
          <circle key={r.id} cx={x(i)} cy={y(r.f1)} r={r.id === selected ? 5 : 3.5} className={i > 0 && r.skillDigest !== done[i - 1]!.skillDigest ? "fill-indigo-600" : "fill-zinc-500"}>
            <title>{`run #${r.id}: F1 ${r.f1 ?? "n/a"}${i > 0 && r.skillDigest !== done[i - 1]!.skillDigest ? " (SKILL.md changed)" : ""}`}</title>
          </circle>
        ))}
      </svg>
      <ul className="text-xs">
        {runs.map((r) => (
          <li key={r.id}>
            <button className={`hover:underline ${r.id === selected ? "font-semibold" : ""}`} onClick={() => onSelect(r.id)}>
              #{r.id} · <Time at={r.startedAt} /> · {r.status} · F1 {r.f1 ?? "n/a"} · {r.provider} · digest {r.skillDigest.slice(0, 8)}
            </button>
          </li>
        ))}
      </ul>
    </Section>
  );
}
