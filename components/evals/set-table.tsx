"use client";
// The trigger set as an editable table: add, edit, toggle should_trigger, remove; import and export skill-creator's
// triggers.json. Typing stays local; Save writes evals/triggers.json as a new version of the skill.
import { useRef } from "react";
import type { EditableCase } from "./types";
import { count } from "~/server/domain/plural";

interface Props {
  cases: EditableCase[];
  onChange: (cases: EditableCase[]) => void;
  canWrite: boolean;
  dirty: boolean;
  busy: boolean;
  onSave: () => void;
  onImport: (text: string) => void;
  onExport: () => void;
  /** Read-only cases from evals/evals.json (run as should-trigger). */
  fromTasks: { query: string }[];
  /** Query text -> outcome of the shown run, to mark rows. */
  outcome: Map<string, "pass" | "fail" | "error">;
}

let nextKey = 1;
export const withKeys = (cases: { query: string; should_trigger: boolean }[]): EditableCase[] => cases.map((c) => ({ ...c, key: nextKey++ }));

export function SetTable({ cases, onChange, canWrite, dirty, busy, onSave, onImport, onExport, fromTasks, outcome }: Props) {
  const file = useRef<HTMLInputElement>(null);
  const update = (key: number, patch: Partial<EditableCase>) => onChange(cases.map((c) => (c.key === key ? { ...c, ...patch } : c)));
  return (
    <section className="card space-y-2" aria-label="Trigger set">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="font-semibold">Trigger set</h2>
        <span className="muted text-xs">evals/triggers.json · {count(cases.length, "query", "queries")}{fromTasks.length ? ` + ${count(fromTasks.length, "prompt")} from evals.json` : ""}</span>
        <div className="ml-auto flex gap-2">
          {canWrite && (
            <button className="btn" onClick={() => onChange([...cases, ...withKeys([{ query: "", should_trigger: true }])])}>
              Add query
            </button>
          )}
          {canWrite && (
            <>
              <button className="btn" onClick={() => file.current?.click()}>
                Import JSON
              </button>
              <input
                ref={file}
                type="file"
                accept="application/json,.json"
                aria-label="Import trigger set"
                className="hidden"
                onChange={(e) => {
                  const f = e.target.files?.[0];
                  if (f) void f.text().then(onImport);
                  e.target.value = "";
                }}
              />
            </>
          )}
          <button className="btn" onClick={onExport}>
            Export JSON
          </button>
          {canWrite && (
            <button className="btn btn-primary" onClick={onSave} disabled={busy || !dirty}>
              Save set{dirty ? " •" : ""}
            </button>
          )}
        </div>
      </div>
      <table className="table" data-testid="trigger-set">
        <thead>
          <tr>
            <th className="w-full">Query</th>
            <th>Should trigger</th>
            <th>Last run</th>
            {canWrite && <th />}
          </tr>
        </thead>
        <tbody>
          {cases.map((c, i) => (
            <tr key={c.key} data-testid={`case-${i}`}>
              <td>
                <input className="input w-full" aria-label={`Query ${i + 1}`} value={c.query} readOnly={!canWrite} onChange={(e) => update(c.key, { query: e.target.value })} />
              </td>
              <td className="text-center">
                <input type="checkbox" aria-label={`Query ${i + 1} should trigger`} checked={c.should_trigger} disabled={!canWrite} onChange={(e) => update(c.key, { should_trigger: e.target.checked })} />
              </td>
              <td>{outcomeBadge(outcome.get(c.query))}</td>
              {canWrite && (
                <td>
                  <button className="btn px-2 py-0.5 text-xs" aria-label={`Remove query ${i + 1}`} onClick={() => onChange(cases.filter((x) => x.key !== c.key))}>
                    Remove
                  </button>
                </td>
              )}
            </tr>
          ))}
          {fromTasks.map((t, i) => (
            <tr key={`task-${i}`} className="muted">
              <td>{t.query}</td>
              <td className="text-center">yes (evals.json)</td>
              <td>{outcomeBadge(outcome.get(t.query))}</td>
              {canWrite && <td />}
            </tr>
          ))}
          {cases.length === 0 && fromTasks.length === 0 && (
            <tr>
              <td colSpan={4} className="muted">
                No queries yet. Add requests a user might type: some that should use this skill, some that should not.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}

function outcomeBadge(o: "pass" | "fail" | "error" | undefined) {
  if (!o) return <span className="muted text-xs">—</span>;
  const style = o === "pass" ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-200" : o === "fail" ? "bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-200" : "bg-amber-100 text-amber-800";
  return <span className={`badge ${style}`}>{o}</span>;
}
