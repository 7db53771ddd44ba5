import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

import { ROLES } from "../../server/domain/vocabulary";

export { ROLES, hasRole, type Role } from "../../server/domain/vocabulary";

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull().unique(),
    name: text("name").notNull().default(""),
    role: text("role", { enum: ROLES }).notNull().default("viewer"),
    passwordHash: text("password_hash").notNull(),
    disabled: integer("disabled", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch() * 1000)`),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch() * 1000)`),
  },
  (t) => [index("users_role_idx").on(t.role)],
);

export type User = typeof users.$inferSelect;
