// One run's results, row by row as they arrive, its confusion summary, and what changed since the previous run.
import type { EvalRun, QueryRow } from "./types";
import { DataTable } from "~/components/shell/data-table";
import { count } from "~/server/domain/plural";

const pct = (n: number | null | undefined) => (n === null || n === undefined ? "n/a" : `${Math.round(n * 100)}%`);

export function RunResults({ run, previous }: { run: EvalRun; previous: EvalRun | null }) {
  const before = new Map((previous?.results ?? []).map((r) => [r.query, r]));
  const s = run.summary;
  return (
    <section className="card space-y-2" aria-label="Run results" data-testid="run-results">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="font-semibold">Run #{run.id}</h2>
        <span className="muted text-xs">
          {run.provider}
          {run.provider !== "offline" ? ` ${run.model}` : ""} · {run.mode} mode · {count(run.runs, "run")} per query · {run.status === "running" ? `running (${run.results.length}/${run.cases})` : run.status}
        </span>
        {previous && <span className="muted text-xs">compared with run #{previous.id}</span>}
      </div>
      {s && (
        <p className="text-sm" data-testid="run-summary">
          <strong>
            {s.passed}/{s.total} passed
          </strong>{" "}
          · <Term title="Of the queries where the skill fired, the share that should have (few false alarms: high).">precision</Term> {pct(s.precision)} ·{" "}
          <Term title="Of the queries that should fire the skill, the share that did (few misses: high).">recall</Term> {pct(s.recall)} ·{" "}
          <Term title="Precision and recall in one number (their harmonic mean).">F1</Term> {pct(s.f1)} · accuracy {pct(s.accuracy)} ·{" "}
          <Term title="Fired as expected (TP), fired when it should not (FP), stayed quiet as expected (TN), missed (FN).">
            TP {s.tp} FP {s.fp} TN {s.tn} FN {s.fn}
          </Term>
          {s.errored ? ` · ${s.errored} errored` : ""}
          {s.competitors.length ? ` · fired instead: ${s.competitors.map((c) => `${c.skill} (${c.queries})`).join(", ")}` : ""}
        </p>
      )}
      {run.error && <p className="error-text">{run.error}</p>}
      {s?.tasks?.length ? (
        <div className="space-y-1" data-testid="task-grades">
          <h3 className="text-sm font-semibold">Task evals (evals.json), graded by {run.model}</h3>
          {s.tasks.map((g) => (
            <div key={String(g.id)} className="text-sm">
              <div className="font-medium">{g.prompt}</div>
              {g.error && <div className="error-text">{g.error}</div>}
              <ul className="ml-4">
                {g.expectations.map((x, i) => (
                  <li key={i}>
                    <span className={x.passed ? "text-emerald-700 dark:text-emerald-300" : "text-red-700 dark:text-red-300"}>{x.passed ? "pass" : "fail"}</span> {x.expectation}
                    {x.reason && <span className="muted"> ({x.reason})</span>}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      ) : null}
      <p className="muted text-xs">
        Listed: how the skill appeared in what the agent was shown for that query: with its description, by name only, or
        left out of a listing too long for its budget (found by search).
      </p>
      <DataTable card={false} testId="run-table" columns={["Outcome", { label: "Query", className: "w-full" }, "Expected", "Rate", "Fired", "Listed", "Tokens", "ms"]}>
        {run.results.map((r, i) => (
          <ResultRow key={i} r={r} change={changeOf(before.get(r.query), r)} />
        ))}
      </DataTable>
    </section>
  );
}

/** A failed query with neither a model's reason nor a ranking to show still says what happened. */
function silentMiss(r: QueryRow): string {
  if (!r.should_trigger) return `${r.chosen.join(", ") || "The skill"} fired though this request should not choose it.`;
  if (r.chosen.length) return `${r.chosen.join(", ")} fired instead.`;
  return "No skill was chosen for this request: make the description say what people ask for, in words like these.";
}

/** A term of the summary with its meaning on hover and focus. */
function Term({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <abbr title={title} tabIndex={0} className="cursor-help">
      {children}
    </abbr>
  );
}

function changeOf(p: QueryRow | undefined, r: QueryRow): "fixed" | "broke" | null {
  if (!p || p.errored || r.errored || p.passed === r.passed) return null;
  return r.passed ? "fixed" : "broke";
}

function ResultRow({ r, change }: { r: QueryRow; change: "fixed" | "broke" | null }) {
  const outcome = r.errored ? "error" : r.passed ? "pass" : "fail";
  const style = r.errored ? "bg-amber-100 text-amber-800" : r.passed ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-200" : "bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-200";
  return (
    <tr data-testid="result-row" className={change ? "bg-yellow-50 dark:bg-yellow-950/40" : ""}>
      <td>
        <span className={`badge ${style}`}>{outcome}</span>
        {change && (
          <span className="ml-1 text-xs font-semibold" data-testid="outcome-change">
            {change === "fixed" ? "now passes" : "now fails"}
          </span>
        )}
      </td>
      <td>
        {r.query}
        {r.errored && <div className="text-xs text-amber-800">provider error: {r.error}</div>}
        {!r.passed && !r.errored && (
          <ul className="muted mt-1 text-xs" data-testid="why">
            {r.reason && <li>model: {r.reason}</li>}
            {r.why?.map((w, i) => <li key={i}>ranking: {w}</li>)}
            {!r.reason && !r.why?.length && <li>{silentMiss(r)}</li>}
          </ul>
        )}
      </td>
      <td>{r.should_trigger ? "fire" : "not fire"}</td>
      <td>{pct(r.triggered)}</td>
      <td>{r.chosen.join(", ") || "—"}</td>
      <td>{r.listed}</td>
      <td>{r.tokens}</td>
      <td>{r.ms}</td>
    </tr>
  );
}
