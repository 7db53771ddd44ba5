import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { ownedBy, timeNow } from "./columns";
import { users } from "./users";

// One row per console sign-in. The session cookie (a next-auth JWT) names its row, and every request checks
// the row is still open, so signing out, disabling the user or "sign out everywhere" ends a copied cookie at once.
export const authSessions = sqliteTable(
  "auth_sessions",
  {
    id: text("id").primaryKey(),
    userId: ownedBy("user_id", () => users.id),
    ip: text("ip").notNull().default(""),
    createdAt: timeNow("created_at"),
    lastSeenAt: timeNow("last_seen_at"),
    endedAt: integer("ended_at", { mode: "timestamp_ms" }),
    /** sign_out | user_disabled | signed_out_everywhere */
    endReason: text("end_reason"),
  },
  (t) => [index("auth_sessions_user_idx").on(t.userId, t.endedAt)],
);

export type AuthSession = typeof authSessions.$inferSelect;
