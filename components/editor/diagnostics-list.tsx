"use client";
// The skill's one list of problems under the editor (issue 41 item 1): the validator's diagnostics of the text
// being edited and the doctor's findings of the saved skill, as the server lists them (skill.check), with counts,
// the files with unsaved edits, and one line per problem that takes the cursor to it. The text view and the
// Details form share this panel, so neither can say "No problems" while the other underlines one.
import type { LiveCheckResult } from "./types";
import { count } from "~/server/domain/plural";

export type Problem = NonNullable<LiveCheckResult>["problems"][number];

const severityClass = (s: Problem["severity"]) => (s === "error" ? "text-red-700 dark:text-red-300" : s === "warning" ? "text-amber-700 dark:text-amber-300" : "muted");

export function DiagnosticsList({ problems, dirty, onGoTo }: { problems: Problem[]; dirty: Set<string>; onGoTo: (p: Problem) => void }) {
  const errors = problems.filter((d) => d.severity === "error").length;
  const warnings = problems.filter((d) => d.severity === "warning").length;
  const doctorStale = dirty.size > 0 && problems.some((p) => p.source === "doctor");
  return (
    <div className="max-h-40 overflow-auto rounded border border-zinc-200 text-xs dark:border-zinc-800" data-testid="diagnostics">
      <div className="flex items-center gap-2 border-b border-zinc-200 px-2 py-1 dark:border-zinc-800">
        <span className="font-semibold">Problems</span>
        <span className={errors ? "text-red-700 dark:text-red-300" : "muted"}>{count(errors, "error")}</span>
        <span className={warnings ? "text-amber-700 dark:text-amber-300" : "muted"}>{count(warnings, "warning")}</span>
        {dirty.size > 0 && <span className="ml-auto text-amber-700 dark:text-amber-300">Unsaved: {[...dirty].join(", ")}</span>}
      </div>
      {doctorStale && <p className="muted px-2 py-0.5">The doctor&apos;s findings are for the saved files; save to check your edits.</p>}
      {problems.length === 0 ? (
        <p className="muted px-2 py-1">No problems.</p>
      ) : (
        <ul>
          {problems.map((d, i) => (
            <li key={i}>
              <button type="button" className="flex w-full gap-2 px-2 py-0.5 text-left hover:bg-zinc-50 dark:hover:bg-zinc-800" onClick={() => onGoTo(d)}>
                <span className={severityClass(d.severity)}>{d.severity}</span>
                <span className="muted shrink-0">
                  {d.file === "SKILL.md" ? "" : `${d.file} `}
                  {d.line}:{d.column}
                </span>
                <code className="shrink-0">{d.code}</code>
                <span>
                  {d.message}
                  {d.fix && <span className="muted"> {d.fix}</span>}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
