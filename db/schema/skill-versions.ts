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
  // A skill's history in order, and the skills list's last change per skill (the highest id of each): with `id` in it,
  // PostgreSQL finds every skill's latest version from this index alone. Without it, it read the whole table (every
  // version's content) on each list page: 130 ms at 100,000 versions, 47 ms from the index (issue #38). SQLite's
  // index entries end with the rowid, which is `id`, so SQLite read it from the index before too.
  (t) => [index("skill_versions_skill_idx").on(t.layer, t.ownerId, t.plugin, t.skill, t.createdAt, t.id)],
);

export type SkillVersion = typeof skillVersions.$inferSelect;
