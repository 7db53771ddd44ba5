import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

// One row per console sign-in. The session cookie (a next-auth JWT) names its row, and every request checks
// the row is still open, so signing out, disabling the user or "sign out everywhere" ends a copied cookie at once.
export const authSessions = sqliteTable(
  "auth_sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    ip: text("ip").notNull().default(""),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch() * 1000)`),
    lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch() * 1000)`),
    endedAt: integer("ended_at", { mode: "timestamp_ms" }),
    /** sign_out | user_disabled | signed_out_everywhere */
    endReason: text("end_reason"),
  },
  (t) => [index("auth_sessions_user_idx").on(t.userId, t.endedAt)],
);

export type AuthSession = typeof authSessions.$inferSelect;
