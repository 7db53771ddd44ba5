"use client";
// SKILL.md's diagnostics under the editor: counts, the files with unsaved edits, and one line per problem that
// takes the cursor to it.
import type { LiveCheckResult } from "./types";
import { count } from "~/server/domain/plural";

type Diag = NonNullable<LiveCheckResult>["diagnostics"][number];

const severityClass = (s: Diag["severity"]) => (s === "error" ? "text-red-700 dark:text-red-300" : s === "warning" ? "text-amber-700 dark:text-amber-300" : "muted");

export function DiagnosticsList({ diagnostics, dirty, onGoTo }: { diagnostics: Diag[]; dirty: Set<string>; onGoTo: (d: Diag) => void }) {
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.filter((d) => d.severity === "warning").length;
  return (
    <div className="max-h-40 overflow-auto rounded border border-zinc-200 text-xs dark:border-zinc-800" data-testid="diagnostics">
      <div className="flex items-center gap-2 border-b border-zinc-200 px-2 py-1 dark:border-zinc-800">
        <span className="font-semibold">SKILL.md diagnostics</span>
        <span className={errors ? "text-red-700 dark:text-red-300" : "muted"}>{count(errors, "error")}</span>
        <span className={warnings ? "text-amber-700 dark:text-amber-300" : "muted"}>{count(warnings, "warning")}</span>
        {dirty.size > 0 && <span className="ml-auto text-amber-700 dark:text-amber-300">Unsaved: {[...dirty].join(", ")}</span>}
      </div>
      {diagnostics.length === 0 ? (
        <p className="muted px-2 py-1">No problems.</p>
      ) : (
        <ul>
          {diagnostics.map((d, i) => (
            <li key={i}>
              <button type="button" className="flex w-full gap-2 px-2 py-0.5 text-left hover:bg-zinc-50 dark:hover:bg-zinc-800" onClick={() => onGoTo(d)}>
                <span className={severityClass(d.severity)}>{d.severity}</span>
                <span className="muted shrink-0">
                  {d.line}:{d.column}
                </span>
                <code className="shrink-0">{d.code}</code>
                <span>{d.message}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
