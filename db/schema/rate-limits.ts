import { primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { required } from "./columns";

// Fixed-window counters every console server shares (issue #38: "100 a minute across 4 servers" must not become
// 400). A window is the epoch-ms start of its minute, the same on every server, so a hit is one upsert and no server
// has to read first; old windows are deleted as they pass.
export const rateLimits = sqliteTable(
  "rate_limits",
  {
    key: text("key").notNull(),
    windowStart: required.integer("window_start"),
    count: required.integer("count"),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);
