import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// The active governance policy as one JSON document per key (e.g. "policy"), replaced as a whole; every
// change is an audit event with before and after.
export const policySettings = sqliteTable("policy_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(), // JSON
  updatedBy: text("updated_by").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

// Approval of one definition of a skill, bound to its digest: an edit after approval needs a new one.
export const approvals = sqliteTable(
  "approvals",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    layer: text("layer").notNull(),
    ownerId: text("owner_id"),
    plugin: text("plugin"),
    skill: text("skill").notNull(),
    digest: text("digest").notNull(),
    status: text("status", { enum: ["pending", "approved", "rejected"] }).notNull(),
    requestedBy: text("requested_by"),
    requestedAt: integer("requested_at").notNull(),
    decidedBy: text("decided_by"),
    decidedAt: integer("decided_at"),
    comment: text("comment").notNull().default(""),
  },
  (t) => [index("approvals_skill_idx").on(t.layer, t.skill, t.digest), index("approvals_status_idx").on(t.status)],
);

export type Approval = typeof approvals.$inferSelect;
