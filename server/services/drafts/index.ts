// Editor drafts: the unsaved text of a file, kept per user on the server so it follows its author to another
// browser. Every query is narrowed to the acting user: nobody reads, overwrites or discards another's draft.
// A draft is only kept where its author may write (a read-only view has nothing to lose).
import { and, asc, eq, lt } from "drizzle-orm";
import { editorDrafts } from "../../../db/schema";
import { DRAFT_MAX_AGE_MS, DRAFTS_PER_USER_MAX } from "../../domain/limits";
import type { SkillsContext } from "../skills/context";
import { assertRead, assertWrite, historyKey, normaliseRef, safeRelPath, type SkillRef } from "../skills/location";

export interface Draft {
  path: string;
  text: string;
  /** sha256 of the file the draft was edited from (null: the file did not exist). */
  baseDigest: string | null;
  updatedAt: number;
}

type Ctx = Pick<SkillsContext, "db" | "actor">;

const keyOf = (ref: SkillRef) => JSON.stringify(historyKey(ref));

function target(ctx: Ctx, input: SkillRef, mode: "read" | "write") {
  const ref = normaliseRef(input, ctx.actor);
  if (mode === "write") assertWrite(ctx.actor, ref);
  else assertRead(ctx.actor, ref);
  return keyOf(ref);
}

export async function saveDraft(ctx: Ctx, input: { ref: SkillRef; path: string; text: string; baseDigest: string | null }, now = Date.now()): Promise<{ updatedAt: number }> {
  const skillKey = target(ctx, input.ref, "write");
  const path = safeRelPath(input.path);
  const row = { userId: ctx.actor.id, skillKey, path, text: input.text, baseDigest: input.baseDigest, updatedAt: now };
  await ctx.db
    .insert(editorDrafts)
    .values(row)
    .onConflictDoUpdate({ target: [editorDrafts.userId, editorDrafts.skillKey, editorDrafts.path], set: { text: row.text, baseDigest: row.baseDigest, updatedAt: now } });
  const mine = await ctx.db.select({ id: editorDrafts.id }).from(editorDrafts).where(eq(editorDrafts.userId, ctx.actor.id)).orderBy(asc(editorDrafts.updatedAt));
  for (const old of mine.slice(0, Math.max(0, mine.length - DRAFTS_PER_USER_MAX))) await ctx.db.delete(editorDrafts).where(eq(editorDrafts.id, old.id));
  return { updatedAt: now };
}

/** The acting user's drafts of one skill (drafts past DRAFT_MAX_AGE_MS are dropped first). */
export async function listDrafts(ctx: Ctx, ref: SkillRef, now = Date.now()): Promise<Draft[]> {
  const skillKey = target(ctx, ref, "read");
  await ctx.db.delete(editorDrafts).where(and(eq(editorDrafts.userId, ctx.actor.id), lt(editorDrafts.updatedAt, now - DRAFT_MAX_AGE_MS)));
  return await ctx.db
    .select({ path: editorDrafts.path, text: editorDrafts.text, baseDigest: editorDrafts.baseDigest, updatedAt: editorDrafts.updatedAt })
    .from(editorDrafts)
    .where(and(eq(editorDrafts.userId, ctx.actor.id), eq(editorDrafts.skillKey, skillKey)))
    .orderBy(asc(editorDrafts.path));
}

/** Drops the acting user's draft of one file, or of every file of the skill when no path is given. */
export async function discardDrafts(ctx: Ctx, ref: SkillRef, path?: string): Promise<{ discarded: number }> {
  const skillKey = target(ctx, ref, "read");
  const where = [eq(editorDrafts.userId, ctx.actor.id), eq(editorDrafts.skillKey, skillKey)];
  if (path !== undefined) where.push(eq(editorDrafts.path, safeRelPath(path)));
  // The rows deleted, counted from RETURNING: the drivers' own counts differ (SQLite's changes, PostgreSQL's rowCount).
  const gone = await ctx.db.delete(editorDrafts).where(and(...where)).returning({ path: editorDrafts.path });
  return { discarded: gone.length };
}
