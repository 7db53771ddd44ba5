// Charts drawn as inline SVG (no chart library): stacked bars over time by event type, and horizontal bar
// lists for the top-N views. Each has a text fallback (title/aria) so the numbers are readable without hover.

const PALETTE = ["#6366f1", "#f59e0b", "#10b981", "#ef4444", "#06b6d4", "#a855f7", "#84cc16", "#f97316", "#64748b", "#ec4899"];

export function colorFor(type: string, order: string[]): string {
  const i = order.indexOf(type);
  return i >= 0 && i < PALETTE.length - 1 ? PALETTE[i]! : PALETTE[PALETTE.length - 1]!;
}

function Empty({ text }: { text: string }) {
  return <p className="muted py-6 text-center text-sm">{text}</p>;
}

export function ChartCard({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  return (
    <section className="card" data-testid={testId}>
      <h2 className="mb-2 text-sm font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/** Events over time, stacked by type. Buckets without events are drawn empty so gaps in time are visible. */
export function TimeSeriesChart({
  points,
  bucket,
  from,
  to,
}: {
  points: { t: number; type: string; n: number }[];
  bucket: "hour" | "day";
  /** The filter's range: the axis spans it (when known) so a bar sits where it happened. */
  from?: number;
  to?: number;
}) {
  if (points.length === 0) return <Empty text="No events in this range." />;
  const step = bucket === "hour" ? 3_600_000 : 86_400_000;
  const totals = new Map<string, number>();
  for (const p of points) totals.set(p.type, (totals.get(p.type) ?? 0) + p.n);
  // The nine busiest types get a colour each; the rest share "other".
  const order = [...totals.entries()].sort((a, b) => b[1] - a[1]).map(([t]) => t);
  const named = order.slice(0, PALETTE.length - 1);
  const label = (type: string) => (named.includes(type) ? type : "other");
  const floor = (t: number) => Math.floor(t / step) * step;
  const first = Math.min(from !== undefined ? floor(from) : Infinity, ...points.map((p) => p.t));
  const last = Math.max(to !== undefined ? floor(to - 1) : -Infinity, ...points.map((p) => p.t));
  const count = Math.min(400, Math.round((last - first) / step) + 1);
  const start = last - (count - 1) * step;
  const stacks: Map<string, number>[] = Array.from({ length: count }, () => new Map());
  for (const p of points) {
    const i = Math.round((p.t - start) / step);
    if (i < 0 || i >= count) continue;
    const m = stacks[i]!;
    m.set(label(p.type), (m.get(label(p.type)) ?? 0) + p.n);
  }
  const max = Math.max(1, ...stacks.map((m) => [...m.values()].reduce((a, b) => a + b, 0)));
  const W = 640;
  const H = 160;
  const bw = W / count;
  const fmt = (t: number) =>
    bucket === "hour"
      ? new Date(t).toISOString().slice(5, 16).replace("T", " ")
      : new Date(t).toISOString().slice(0, 10);
  const legend = [...named, ...(order.length > named.length ? ["other"] : [])];
  return (
    <div>
      <svg viewBox={`0 0 ${W} ${H + 16}`} className="h-44 w-full" role="img" aria-label="Events over time by type">
        <line x1={0} y1={H} x2={W} y2={H} stroke="currentColor" strokeOpacity={0.2} />
        <text x={2} y={10} fontSize={10} fill="currentColor" opacity={0.6}>
          {max.toLocaleString()}
        </text>
        {stacks.map((m, i) => {
          let y = H;
          const total = [...m.values()].reduce((a, b) => a + b, 0);
          return (
            <g key={i}>
              <title>{`${fmt(start + i * step)}: ${total} events${[...m.entries()].map(([k, v]) => `\n${k}: ${v}`).join("")}`}</title>
              {legend
                .filter((k) => m.has(k))
                .map((k) => {
                  const h = (m.get(k)! / max) * (H - 14);
                  y -= h;
                  return <rect key={k} x={i * bw + bw * 0.1} y={y} width={Math.max(1, bw * 0.8)} height={h} fill={k === "other" ? PALETTE[PALETTE.length - 1] : colorFor(k, named)} />;
                })}
            </g>
          );
        })}
        <text x={0} y={H + 12} fontSize={10} fill="currentColor" opacity={0.6}>
          {fmt(start)}
        </text>
        <text x={W} y={H + 12} fontSize={10} fill="currentColor" opacity={0.6} textAnchor="end">
          {fmt(last)}
        </text>
      </svg>
      <ul className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs" aria-label="Legend">
        {legend.map((k) => (
          <li key={k} className="flex items-center gap-1">
            <span className="inline-block h-2.5 w-2.5 rounded-sm" style={{ background: k === "other" ? PALETTE[PALETTE.length - 1] : colorFor(k, named) }} />
            {k} <span className="muted">({k === "other" ? order.slice(named.length).reduce((a, t) => a + (totals.get(t) ?? 0), 0) : totals.get(k)})</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A horizontal bar per row, longest first, with its count. */
export function BarList({ rows, color = PALETTE[0]!, empty, testId }: { rows: { label: string; n: number }[]; color?: string; empty: string; testId?: string }) {
  if (rows.length === 0) return <Empty text={empty} />;
  const max = Math.max(...rows.map((r) => r.n));
  const W = 320;
  const rowH = 20;
  return (
    <svg viewBox={`0 0 ${W} ${rows.length * rowH}`} className="w-full" style={{ height: rows.length * rowH * 1.1 }} role="img" data-testid={testId}>
      {rows.map((r, i) => (
        <g key={r.label} transform={`translate(0 ${i * rowH})`}>
          <title>{`${r.label}: ${r.n}`}</title>
          <text x={0} y={14} fontSize={11} fill="currentColor">
            {r.label.length > 26 ? r.label.slice(0, 25) + "…" : r.label}
          </text>
          <rect x={150} y={4} width={Math.max(2, (r.n / max) * 130)} height={12} rx={2} fill={color} />
          <text x={W} y={14} fontSize={11} fill="currentColor" textAnchor="end">
            {r.n.toLocaleString()}
          </text>
        </g>
      ))}
    </svg>
  );
}
