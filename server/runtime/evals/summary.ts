// The confusion summary of a trigger run, and the comparison of two runs of the same set.
import type { QueryResult } from "./run";

export interface EvalSummary {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
  /** Queries whose every run failed at the provider: counted nowhere else. */
  errored: number;
  /** null when undefined (no positive predictions, no positive cases, nothing counted). */
  precision: number | null;
  recall: number | null;
  f1: number | null;
  accuracy: number | null;
  passed: number;
  total: number;
  /** Which other skills fired, on how many queries where this one should have fired: who competes for them. */
  competitors: { skill: string; queries: number }[];
}

const ratio = (a: number, b: number) => (b === 0 ? null : Math.round((a / b) * 1000) / 1000);

export function summarize(results: readonly QueryResult[], skill: string): EvalSummary {
  let tp = 0;
  let fp = 0;
  let tn = 0;
  let fn = 0;
  let errored = 0;
  const competing = new Map<string, number>();
  for (const r of results) {
    if (r.errored) {
      errored++;
      continue;
    }
    // A query "predicts" a trigger when it passed the threshold the way a should-trigger query must.
    const predicted = r.should_trigger ? r.passed : !r.passed;
    if (r.should_trigger && predicted) tp++;
    else if (r.should_trigger) fn++;
    else if (predicted) fp++;
    else tn++;
    if (r.should_trigger) for (const other of r.chosen) if (other !== skill) competing.set(other, (competing.get(other) ?? 0) + 1);
  }
  const precision = ratio(tp, tp + fp);
  const recall = ratio(tp, tp + fn);
  const f1 = precision === null || recall === null ? null : precision + recall === 0 ? 0 : Math.round(((2 * precision * recall) / (precision + recall)) * 1000) / 1000;
  return {
    tp,
    fp,
    tn,
    fn,
    errored,
    precision,
    recall,
    f1,
    accuracy: ratio(tp + tn, tp + fp + tn + fn),
    passed: tp + tn,
    total: results.length,
    competitors: [...competing].map(([s, queries]) => ({ skill: s, queries })).sort((a, b) => b.queries - a.queries || (a.skill < b.skill ? -1 : 1)),
  };
}

export type OutcomeChange = "fixed" | "broke" | "same" | "new";

/** Per query of `current`: whether it now passes where it failed in `previous` (matched by query text). */
export function compareRuns(previous: readonly QueryResult[], current: readonly QueryResult[]): { query: string; change: OutcomeChange }[] {
  const before = new Map(previous.map((r) => [r.query, r]));
  return current.map((r) => {
    const p = before.get(r.query);
    if (!p || p.errored || r.errored) return { query: r.query, change: p ? "same" : "new" };
    return { query: r.query, change: p.passed === r.passed ? "same" : r.passed ? "fixed" : "broke" };
  });
}
