import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** One trigger eval run of one skill definition (issue #17): what was run, against what, and every query's outcome. */
export const evalRuns = sqliteTable(
  "eval_runs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The definition's key: historyKey(ref) as JSON ({layer, ownerId, plugin, skill}), so runs follow the folder. */
    skillKey: text("skill_key").notNull(),
    /** Frontmatter name at the time of the run. */
    skillName: text("skill_name").notNull(),
    layer: text("layer").notNull(),
    /** sha256 of SKILL.md when the run started: runs are compared across versions by it. */
    skillDigest: text("skill_digest").notNull(),
    /** sha256 of the set as run (the cases, canonical JSON). */
    setDigest: text("set_digest").notNull(),
    provider: text("provider").notNull(),
    model: text("model").notNull(),
    mode: text("mode").notNull(),
    runs: integer("runs").notNull(),
    threshold: real("threshold").notNull(),
    status: text("status").notNull(), // running | done | cancelled | failed
    cases: integer("cases").notNull(),
    results: text("results").notNull(), // JSON QueryResult[] (grows while running)
    summary: text("summary"), // JSON EvalSummary once finished
    f1: real("f1"),
    error: text("error"),
    userId: text("user_id").notNull(),
    startedAt: integer("started_at").notNull(),
    finishedAt: integer("finished_at"),
  },
  (t) => [index("eval_runs_skill_idx").on(t.skillKey, t.id)],
);

export type EvalRunRow = typeof evalRuns.$inferSelect;
