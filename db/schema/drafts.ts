import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Unsaved editor text, kept per user on the server (not per browser), so a draft follows its author to another
 * browser and is never seen by anyone else: every read filters by user_id.
 */
export const editorDrafts = sqliteTable(
  "editor_drafts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Users are disabled, never deleted, so no foreign key: the drafts of a disabled user simply stay unread. */
    userId: text("user_id").notNull(),
    /** The definition's key: historyKey(ref) as JSON ({layer, ownerId, plugin, skill}), as eval runs key it. */
    skillKey: text("skill_key").notNull(),
    /** File path inside the skill folder ("SKILL.md", "references/a.md"). */
    path: text("path").notNull(),
    text: text("text").notNull(),
    /** sha256 of the file the draft was edited from (null: a new file): a restore keeps it, so a save sees a conflict. */
    baseDigest: text("base_digest"),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("editor_drafts_user_file_idx").on(t.userId, t.skillKey, t.path)],
);

export type EditorDraftRow = typeof editorDrafts.$inferSelect;
