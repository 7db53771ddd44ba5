import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { required, rowId, skillKey } from "./columns";

/** One trigger eval run of one skill definition (issue #17): what was run, against what, and every query's outcome. */
export const evalRuns = sqliteTable(
  "eval_runs",
  {
    id: rowId(),
    skillKey: skillKey(),
    /** Frontmatter name at the time of the run. */
    skillName: required.text("skill_name"),
    layer: required.text("layer"),
    /** sha256 of SKILL.md when the run started: runs are compared across versions by it. */
    skillDigest: required.text("skill_digest"),
    /** sha256 of the set as run (the cases, canonical JSON). */
    setDigest: required.text("set_digest"),
    provider: required.text("provider"),
    model: required.text("model"),
    mode: required.text("mode"),
    runs: required.integer("runs"),
    threshold: required.real("threshold"),
    status: required.text("status"), // running | done | cancelled | failed
    cases: required.integer("cases"),
    results: required.text("results"), // JSON QueryResult[] (grows while running)
    summary: text("summary"), // JSON EvalSummary once finished
    f1: real("f1"),
    error: text("error"),
    userId: required.text("user_id"),
    startedAt: required.integer("started_at"),
    finishedAt: integer("finished_at"),
  },
  (t) => [index("eval_runs_skill_idx").on(t.skillKey, t.id)],
);

export type EvalRunRow = typeof evalRuns.$inferSelect;
