import { primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { ownedBy, timeNow } from "./columns";
import { users } from "./users";

// Which tenants a console user belongs to (issue #40): a skill scoped to a tenant reaches only its members, and a
// request may name only one of its caller's tenants. An admin with no row here is the global admin.
export const userTenants = sqliteTable(
  "user_tenants",
  {
    userId: ownedBy("user_id", () => users.id),
    tenant: text("tenant").notNull(),
    createdAt: timeNow("created_at"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.tenant] })],
);
