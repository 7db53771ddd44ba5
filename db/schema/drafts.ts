import { sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { required, rowId, skillKey } from "./columns";

/**
 * Unsaved editor text, kept per user on the server (not per browser), so a draft follows its author to another
 * browser and is never seen by anyone else: every read filters by user_id.
 */
export const editorDrafts = sqliteTable(
  "editor_drafts",
  {
    id: rowId(),
    /** Users are disabled, never deleted, so no foreign key: the drafts of a disabled user simply stay unread. */
    userId: required.text("user_id"),
    skillKey: skillKey(),
    /** File path inside the skill folder ("SKILL.md", "references/a.md"). */
    path: required.text("path"),
    text: required.text("text"),
    /** sha256 of the file the draft was edited from (null: a new file): a restore keeps it, so a save sees a conflict. */
    baseDigest: text("base_digest"),
    updatedAt: required.integer("updated_at"),
  },
  (t) => [uniqueIndex("editor_drafts_user_file_idx").on(t.userId, t.skillKey, t.path)],
);

export type EditorDraftRow = typeof editorDrafts.$inferSelect;
