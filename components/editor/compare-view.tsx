"use client";
// Two versions of a file side by side, read only (from the history panel's Compare).
import type { Compare } from "./hooks/use-skill-actions";
import { SideBySideDiff } from "./side-by-side-diff";

export function CompareView({ compare, modelKey, theme, onClose }: { compare: Compare; modelKey: string; theme: string; onClose: () => void }) {
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2" data-testid="compare-view">
      <div className="flex items-center gap-2 text-sm">
        <span className="font-medium">{compare.title}</span>
        <button className="btn ml-auto px-2 py-1 text-xs" onClick={onClose}>
          Close comparison
        </button>
      </div>
      <div className="min-h-0 flex-1 rounded border border-zinc-200 dark:border-zinc-800">
        <SideBySideDiff
          original={compare.original}
          modified={compare.modified}
          language={compare.language}
          theme={theme}
          paths={[`inmemory://compare/a/${modelKey}`, `inmemory://compare/b/${modelKey}`]}
        />
      </div>
    </div>
  );
}
