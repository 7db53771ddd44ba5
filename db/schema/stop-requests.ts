import { primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { required } from "./columns";

// A stop asked for a playground turn or a trigger-test run, by whoever asked, on whichever server (issue #38): the
// server running the work is another process, so the request is a row it polls for while it runs. One row per run,
// so two clicks (or two servers) ask once and the audit says so once; the running server removes it when the run ends.
export const stopRequests = sqliteTable(
  "stop_requests",
  {
    kind: text("kind").notNull(), // turn | eval
    /** The run: a turn's `<session id>#<turn>`, an eval run's id. */
    target: text("target").notNull(),
    requestedBy: required.text("requested_by"),
    requestedAt: required.integer("requested_at"),
  },
  (t) => [primaryKey({ columns: [t.kind, t.target] })],
);
