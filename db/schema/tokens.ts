import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { required, timeNow } from "./columns";
import { users } from "./users";

// Access tokens for the machine-facing API routes (catalog, telemetry). Only a sha256 of the secret is kept: the
// token itself is shown once. A token belongs to a user (their catalog) or, with userId null, is a machine token
// an administrator made (the shared layers only, no personal layer).
export const accessTokens = sqliteTable(
  "access_tokens",
  {
    id: text("id").primaryKey(),
    name: required.text("name"),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    createdBy: required.text("created_by"),
    /** Comma-separated scopes (server/domain/tokens.ts). */
    scopes: required.text("scopes"),
    /** JSON list of the tenants the token acts for, fixed at creation (at most its owner's); null: none. */
    tenants: text("tenants"),
    /** hex sha256 of the whole token string. */
    tokenHash: text("token_hash").notNull().unique(),
    /** The first characters, so a person can tell tokens apart without the secret. */
    prefix: required.text("prefix"),
    createdAt: timeNow("created_at"),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
    lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("access_tokens_user_idx").on(t.userId)],
);

export type AccessToken = typeof accessTokens.$inferSelect;
