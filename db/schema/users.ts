import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const ROLES = ["viewer", "author", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** Roles are ordered: an admin may do everything an author may, an author everything a viewer may. */
export const hasRole = (role: Role, min: Role): boolean => ROLES.indexOf(role) >= ROLES.indexOf(min);

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
