import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { required, rowId } from "./columns";

// The active governance policy as one JSON document per key (e.g. "policy"), replaced as a whole; every
// change is an audit event with before and after.
export const policySettings = sqliteTable("policy_settings", {
  key: text("key").primaryKey(),
  value: required.text("value"), // JSON
  updatedBy: required.text("updated_by"),
  updatedAt: required.integer("updated_at"),
});

// Approval of one definition of a skill, bound to its digest: an edit after approval needs a new one.
export const approvals = sqliteTable(
  "approvals",
  {
    id: rowId(),
    layer: required.text("layer"),
    ownerId: text("owner_id"),
    plugin: text("plugin"),
    skill: required.text("skill"),
    digest: required.text("digest"),
    status: text("status", { enum: ["pending", "approved", "rejected"] }).notNull(),
    requestedBy: text("requested_by"),
    requestedAt: required.integer("requested_at"),
    decidedBy: text("decided_by"),
    decidedAt: integer("decided_at"),
    comment: text("comment").notNull().default(""),
    // A git source's update waiting for review (#39): which source, and the pinned and proposed commits. Null for a
    // definition's own approval.
    source: text("source"),
    fromCommit: text("from_commit"),
    toCommit: text("to_commit"),
  },
  (t) => [index("approvals_skill_idx").on(t.layer, t.skill, t.digest), index("approvals_status_idx").on(t.status)],
);

export type Approval = typeof approvals.$inferSelect;
