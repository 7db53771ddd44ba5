import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { required, timeNow } from "./columns";

import { ROLES } from "../../server/domain/vocabulary";

export { ROLES, hasRole, type Role } from "../../server/domain/vocabulary";

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull().unique(),
    name: text("name").notNull().default(""),
    role: text("role", { enum: ROLES }).notNull().default("viewer"),
    passwordHash: required.text("password_hash"),
    disabled: integer("disabled", { mode: "boolean" }).notNull().default(false),
    createdAt: timeNow("created_at"),
    updatedAt: timeNow("updated_at"),
  },
  (t) => [index("users_role_idx").on(t.role)],
);

export type User = typeof users.$inferSelect;
