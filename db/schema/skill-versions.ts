import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { required, rowId } from "./columns";

// Every change to a skill's files through the console: the layer folders stay the truth for content, this
// table is the history (who, when, why, what) that makes restore and diff possible.
export const skillVersions = sqliteTable(
  "skill_versions",
  {
    id: rowId(),
    layer: required.text("layer"), // enterprise | personal | project | plugin
    ownerId: text("owner_id"), // the user whose personal layer it is
    plugin: text("plugin"),
    skill: required.text("skill"), // folder name of the skill in its layer
    path: required.text("path"), // file inside the skill ("SKILL.md", "references/a.md"); "" for whole-skill actions
    action: required.text("action"), // create | save | rename | delete-file | delete | restore | import
    content: text("content"), // the file's text after the change (null when deleted or binary)
    snapshot: text("snapshot"), // JSON {path: content} of the whole skill, for delete/import/restore of a skill
    digest: text("digest"), // sha256 of content
    authorId: required.text("author_id"),
    authorEmail: required.text("author_email"),
    message: text("message").notNull().default(""),
    createdAt: required.integer("created_at"), // epoch ms
  },
  (t) => [index("skill_versions_skill_idx").on(t.layer, t.ownerId, t.plugin, t.skill, t.createdAt)],
);

export type SkillVersion = typeof skillVersions.$inferSelect;
