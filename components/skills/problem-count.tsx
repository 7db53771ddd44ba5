"use client";
// A list row's problems: how many the skill's one problem list holds (the editor's panel shows the same list) and
// the worst severity's colour (issue 41 item 1). Nothing while the counts load; "no problems" says it was looked at.
import { count } from "~/server/domain/plural";

const STYLE: Record<string, string> = {
  error: "bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-200",
  warning: "bg-amber-100 text-amber-800 dark:bg-amber-900/40 dark:text-amber-200",
  info: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200",
};

export function ProblemCount({ p }: { p: { count: number; worst: string | null } | undefined }) {
  if (!p) return null;
  if (!p.count || !p.worst) return <div className="muted mt-1 text-xs" data-testid="problem-count">no problems</div>;
  return (
    <div className="mt-1">
      <span className={`badge text-xs ${STYLE[p.worst] ?? ""}`} title={`The worst is ${p.worst === "error" ? "an error" : `a ${p.worst}`}; the editor's panel lists them`} data-testid="problem-count">
        {count(p.count, "problem")} · worst {p.worst}
      </span>
    </div>
  );
}
