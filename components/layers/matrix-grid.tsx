"use client";
// The override matrix, virtualised: only the rows on screen are in the DOM, so 1,000+ names stay smooth.
import { useVirtualizer } from "@tanstack/react-virtual";
import { useRef } from "react";
import type { MatrixRow } from "./types";
import { LAYER_LABEL, LAYERS } from "~/server/domain/vocabulary";
import { StatusBadge } from "./status-badge";

const GRID = "grid grid-cols-[minmax(8rem,1.4fr)_repeat(4,minmax(5.5rem,1fr))_minmax(6rem,1fr)] gap-2 items-center";

export function MatrixGrid({ rows, selected, onSelect }: { rows: MatrixRow[]; selected: string | null; onSelect: (name: string) => void }) {
  const parentRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parentRef.current,
    estimateSize: () => 42,
    overscan: 12,
  });
  return (
    // Six columns need about 41rem (their minimums, gaps, padding and the row marker; a badge wraps inside its cell), so
    // the whole matrix fits an 800 px window; only on a narrower one does it scroll sideways in its card as one, header
    // with rows. The row list itself only scrolls down.
    <div className="card overflow-x-auto p-0" role="table" aria-label="Skill layers" aria-rowcount={rows.length + 1} data-testid="layers-matrix">
      <div className="min-w-[41rem]">
        <div role="row" className={`${GRID} border-b border-zinc-200 px-3 py-2 text-xs font-semibold tracking-wide text-zinc-500 uppercase dark:border-zinc-800`}>
          <span role="columnheader">Skill name</span>
          {LAYERS.map((l) => (
            <span role="columnheader" key={l}>
              {LAYER_LABEL[l]}
            </span>
          ))}
          <span role="columnheader">Agents get</span>
        </div>
        <div ref={parentRef} className="max-h-[60vh] min-h-24 overflow-x-hidden overflow-y-auto" data-testid="layers-scroll">
          {rows.length === 0 && <p className="muted p-4 text-sm">No skill matches.</p>}
          <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
            {virtualizer.getVirtualItems().map((v) => {
              const r = rows[v.index]!;
              const isSel = r.name === selected;
              return (
                <div
                  key={r.name}
                  role="row"
                  aria-rowindex={v.index + 2}
                  aria-selected={isSel}
                  tabIndex={0}
                  data-index={v.index}
                  data-testid={`layer-row-${r.name}`}
                  ref={virtualizer.measureElement}
                  onClick={() => onSelect(r.name)}
                  onKeyDown={(e) => {
                    if (e.key === "Enter" || e.key === " ") {
                      e.preventDefault();
                      onSelect(r.name);
                    }
                  }}
                  style={{ position: "absolute", top: 0, left: 0, width: "100%", transform: `translateY(${v.start}px)` }}
                  className={`${GRID} cursor-pointer border-b border-l-4 border-b-zinc-100 px-3 py-1.5 text-sm dark:border-b-zinc-800/60 ${
                    r.overridden ? "border-l-amber-400 bg-amber-50/40 dark:border-l-amber-500 dark:bg-amber-950/10" : "border-l-transparent"
                  } ${isSel ? "bg-indigo-50 dark:bg-indigo-950/40" : "hover:bg-zinc-50 dark:hover:bg-zinc-800/40"}`}
                >
                  <span role="cell" className="flex min-w-0 items-center gap-2">
                    <span className="truncate font-medium" title={r.name}>
                      {r.name}
                    </span>
                    {r.overridden && (
                      <span className="badge bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-100" title="defined in more than one place">
                        {r.definitions} definitions
                      </span>
                    )}
                    {r.hasWarnings && (
                      <span className="badge bg-yellow-100 text-yellow-900 dark:bg-yellow-900/40 dark:text-yellow-100" title="resolution warning">
                        ⚠ warning
                      </span>
                    )}
                  </span>
                  {LAYERS.map((l) => (
                    <span role="cell" key={l} className="flex flex-wrap gap-1" data-testid={`cell-${r.name}-${l}`}>
                      {r.cells[l].length === 0 ? (
                        <span className="muted text-xs" aria-label="not defined">
                          —
                        </span>
                      ) : (
                        r.cells[l].map((c) => <StatusBadge key={c.id} status={c.status} prefix={c.plugin} />)
                      )}
                    </span>
                  ))}
                  <span role="cell" className="text-xs" data-testid={`active-${r.name}`}>
                    {r.active ? (
                      <span className="font-medium">
                        {r.active.layer}
                        {r.active.plugin ? ` (${r.active.plugin})` : ""}
                      </span>
                    ) : (
                      <span className="text-rose-700 dark:text-rose-300">nothing active</span>
                    )}
                  </span>
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}
