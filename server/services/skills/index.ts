// The skills service: what the console's skill pages and the skill router call. Plain functions over a
// SkillsContext (db, data home, audit sink, actor); rights are checked here, whatever the UI shows.
import { eq } from "drizzle-orm";
import { users } from "../../../db/schema";
import { viewerIndex } from "../governance/context";
import { effectivePolicy } from "../policy/store";
import type { SkillsContext } from "./context";
import { existingSkillDir } from "./edit";
import { listTree } from "./files";
import { latestChanges } from "./history";
import { listedRows, queryRows, type ListedRow, type ListQuery, type SkillList } from "./list";
import { assertMayReview, canWrite, type SkillRef } from "./location";
import { sourceProvenance } from "../../runtime/sources/roots";

export { type SkillsContext, skillActor } from "./context";
export * from "./errors";
export { type SkillRef, type SkillActor } from "./location";
export { readSkillFile, saveFile, createFile, createFolder, renamePath, deletePath, restoreVersion, readVersion, skillTree } from "./edit";
export { createSkill, deleteSkill, restoreDeleted, listDeleted, checkNewName, writableTargets } from "./lifecycle";
export { importArchive, exportZip } from "./transfer";
export { liveCheck, type LiveCheck } from "./live-check";
export { skillDisclosure } from "./disclosure";
export { listVersions } from "./history";
export { SKILL_TEMPLATES } from "./templates";
export { editorVocabulary } from "./vocabulary";
export type { ListQuery, SkillList } from "./list";
export { searchSkills } from "./search";
export { assertTenantVisible, assertVersionVisible, tenantSees } from "./tenant-guard";

/**
 * The list page: every definition the actor can see, resolved with the current policy. `owner` (administrators
 * only) lists that user's personal skills instead, resolved as that user's catalog resolves them.
 */
export async function listSkills(ctx: SkillsContext, query: ListQuery, owner?: string): Promise<SkillList> {
  if (owner !== undefined && owner !== ctx.actor.id) {
    assertMayReview(ctx.actor, owner);
    const index = await viewerIndex(ctx.db, ctx.dataHome, ctx.actor, owner);
    const rows = listedRows(index, await effectivePolicy(ctx.db, { userId: owner }), owner).filter((r) => r.row.layer === "personal");
    // Their names and descriptions are a look at someone's personal skills too: on the record like opening one.
    ctx.audit.record({
      type: "personal_skill_opened",
      actor: { id: ctx.actor.id, email: ctx.actor.email },
      layer: "personal",
      outcome: "ok",
      details: { ownerId: owner, procedure: ctx.procedure, listed: rows.length },
    });
    return queryRows(rows, await latestChanges(ctx.db), query);
  }
  const index = await viewerIndex(ctx.db, ctx.dataHome, ctx.actor);
  return queryRows(listedRows(index, await effectivePolicy(ctx.db), ctx.actor.id), await latestChanges(ctx.db), query);
}

/** The editor's header: files, whether the actor may write, and the definition's status in the list. */
export async function skillInfo(ctx: SkillsContext, input: SkillRef) {
  const { ref, dir } = existingSkillDir(ctx, input, "read");
  // Reviewing someone's personal skills is part of an administrator's job; existingSkillDir put this look on the record.
  const someoneElse = ref.layer === "personal" && ref.ownerId !== ctx.actor.id;
  const index = await viewerIndex(ctx.db, ctx.dataHome, ctx.actor, someoneElse ? ref.ownerId! : ctx.actor.id);
  const entry = index.entries().find((e) => e.dir === dir);
  let status: string | null = null;
  let statusReason = "";
  let validity: ListedRow["row"]["validity"] | null = null;
  const owner = someoneElse ? ref.ownerId! : ctx.actor.id;
  const policy = await effectivePolicy(ctx.db, someoneElse ? { userId: owner } : undefined);
  if (entry) {
    const listed = listedRows(index, policy, owner);
    // The row of this very entry (the same folder may not be listed twice).
    const row = listed.find((r) => r.entry === entry)?.row;
    status = row?.status ?? null;
    statusReason = row?.statusReason ?? "";
    validity = row?.validity ?? null;
  }
  const reviewOf = someoneElse ? { id: ref.ownerId!, email: (await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, ref.ownerId!)).limit(1))[0]?.email ?? null } : null;
  return {
    ref,
    /** Someone else's personal skill opened by an administrator: whose. */
    reviewOf,
    name: entry?.name ?? ref.skill,
    description: entry?.description ?? "",
    status,
    statusReason,
    /** The validator's verdict: "errors" beside a loaded status is a skill that loads leniently despite errors. */
    validity,
    /** The policy allows reserved words in names (validity.ts): the Details form does not call them an error. */
    reservedNamesAllowed: !!policy.allowReservedNames,
    canWrite: canWrite(ctx.actor, ref),
    /** A git source's skill: its repository, folder and pinned commit; `definitionId` is what a copy starts from. */
    source: entry && ref.source ? (sourceProvenance(ctx.dataHome.home).get(entry.root) ?? null) : null,
    definitionId: entry?.id ?? null,
    files: listTree(dir),
  };
}
