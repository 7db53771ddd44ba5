// The version history of skills (skill_versions): every save, create, rename, delete, restore and import through
// the console. Whole-skill actions keep a snapshot of every file so a deleted skill can come back.
import { and, desc, eq, isNull, max } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { preparedQuery } from "../../../db/prepared";
import { skillVersions, type SkillVersion } from "../../../db/schema";
import { historyKey, type SkillActor, type SkillRef } from "./location";

export type VersionAction = "create" | "save" | "rename" | "delete-file" | "delete" | "restore" | "import";

/** One file of a snapshot: text when it is UTF-8, else base64. */
export interface SnapshotFile {
  path: string;
  text?: string;
  base64?: string;
  executable?: boolean;
}

export interface Snapshot {
  files: SnapshotFile[];
}

export interface VersionSummary {
  id: number;
  path: string;
  action: VersionAction;
  digest: string | null;
  authorId: string;
  authorEmail: string;
  message: string;
  createdAt: number;
  hasContent: boolean;
  hasSnapshot: boolean;
}

export async function recordVersion(
  db: Db,
  ref: SkillRef,
  actor: SkillActor,
  v: { path: string; action: VersionAction; content?: string | null; digest?: string | null; snapshot?: Snapshot | null; message?: string },
): Promise<number> {
  const key = historyKey(ref);
  const row = (await db
    .insert(skillVersions)
    .values({
      ...key,
      path: v.path,
      action: v.action,
      content: v.content ?? null,
      snapshot: v.snapshot ? JSON.stringify(v.snapshot) : null,
      digest: v.digest ?? null,
      authorId: actor.id,
      authorEmail: actor.email,
      message: (v.message ?? "").slice(0, 500),
      createdAt: Date.now(),
    })
    .returning({ id: skillVersions.id }))[0]!;
  return row.id;
}

function keyWhere(ref: SkillRef) {
  const k = historyKey(ref);
  return and(
    eq(skillVersions.layer, k.layer),
    k.ownerId === null ? isNull(skillVersions.ownerId) : eq(skillVersions.ownerId, k.ownerId),
    k.plugin === null ? isNull(skillVersions.plugin) : eq(skillVersions.plugin, k.plugin),
    eq(skillVersions.skill, k.skill),
  );
}

export async function listVersions(db: Db, ref: SkillRef, limit = 500): Promise<VersionSummary[]> {
  return (await db
    .select()
    .from(skillVersions)
    .where(keyWhere(ref))
    .orderBy(desc(skillVersions.createdAt), desc(skillVersions.id))
    .limit(limit))
    .map(summary);
}

/** The newest version row of one file of a skill (any action), or undefined. */
export async function latestVersionOfPath(db: Db, ref: SkillRef, path: string): Promise<SkillVersion | undefined> {
  return (await db
    .select()
    .from(skillVersions)
    .where(and(keyWhere(ref), eq(skillVersions.path, path)))
    .orderBy(desc(skillVersions.id))
    .limit(1))[0];
}

export async function getVersion(db: Db, id: number): Promise<SkillVersion | undefined> {
  return (await db.select().from(skillVersions).where(eq(skillVersions.id, id)).limit(1))[0];
}

export function summary(r: SkillVersion): VersionSummary {
  return {
    id: r.id,
    path: r.path,
    action: r.action as VersionAction,
    digest: r.digest,
    authorId: r.authorId,
    authorEmail: r.authorEmail,
    message: r.message,
    createdAt: r.createdAt,
    hasContent: r.content !== null,
    hasSnapshot: r.snapshot !== null,
  };
}

export function parseSnapshot(raw: string | null): Snapshot | null {
  if (!raw) return null;
  try {
    const s = JSON.parse(raw) as Snapshot;
    return Array.isArray(s.files) ? s : null;
  } catch {
    return null;
  }
}

/** Latest change per skill (one query for the whole list): key "layer|owner|plugin|skill" -> who and when. */
// Read for every list page: prepared once per connection.
// The author, action and time are SQLite's bare columns: they come from the row holding the group's MAX(id), the
// newest row (two rows of one save, the text found on disk and the save itself, may share a millisecond).
const latestChangeRows = preparedQuery((db) => {
  const v = skillVersions;
  return db
    .select({ layer: v.layer, ownerId: v.ownerId, plugin: v.plugin, skill: v.skill, authorEmail: v.authorEmail, action: v.action, createdAt: v.createdAt, newest: max(v.id) })
    .from(v)
    .groupBy(v.layer, v.ownerId, v.plugin, v.skill)
    .prepare();
});

export async function latestChanges(db: Db): Promise<Map<string, { authorEmail: string; createdAt: number; action: string }>> {
  const rows = await latestChangeRows(db).execute();
  const out = new Map<string, { authorEmail: string; createdAt: number; action: string }>();
  for (const r of rows) out.set(changeKey(r), { authorEmail: r.authorEmail, createdAt: r.createdAt, action: r.action });
  return out;
}

export const changeKey = (k: { layer: string; ownerId: string | null; plugin: string | null; skill: string }) =>
  `${k.layer}|${k.ownerId ?? ""}|${k.plugin ?? ""}|${k.skill}`;

/** "delete" rows, newest first, one per skill (the caller drops those whose folder exists again). */
export async function deleteRows(db: Db, limit = 500): Promise<SkillVersion[]> {
  const rows = await db.select().from(skillVersions).where(eq(skillVersions.action, "delete")).orderBy(desc(skillVersions.id)).limit(limit);
  const seen = new Set<string>();
  return rows.filter((r) => {
    const k = changeKey(r);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
