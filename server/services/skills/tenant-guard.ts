// The file doors (read a file, the tree, versions, export, the doctor's and the trigger tests' skill) name a skill by
// its folder, not through a listing: a skill scoped to tenants none of which is the caller's is "does not exist"
// there too (issue #40), with the very words a missing folder gets, so the answer tells nothing.
import fs from "node:fs";
import { tenantVisible, type SkillEntry } from "../../runtime/registry";
import { checkSkillSource } from "../../runtime/skill";
import { visibleTenants } from "../../domain/tenants";
import { indexFor } from "../catalog/catalog";
import { tenantCaller } from "../tenants/gate";
import { assertUserInReach } from "../tenants/admin-reach";
import type { SkillsContext } from "./context";
import { deleteRows, getVersion, parseSnapshot, type Snapshot } from "./history";
import { notFound, SkillServiceError } from "./errors";
import { normaliseRef, refFromHistory, skillDirOf, type SkillRef } from "./location";

export async function assertTenantVisible(ctx: SkillsContext, input: SkillRef): Promise<void> {
  let ref: SkillRef;
  let dir: string;
  try {
    ref = normaliseRef(input, ctx.actor);
    dir = skillDirOf(ctx.dataHome, ref);
  } catch {
    return; // a ref that names no folder: the door itself refuses it with its own words
  }
  const owner = ref.layer === "personal" ? (ref.ownerId ?? ctx.actor.id) : ctx.actor.id;
  // An admin's review of someone's personal skill: a tenant admin reviews only the users they manage.
  if (owner !== ctx.actor.id && ctx.actor.role === "admin") await assertUserInReach(ctx.db, ctx.actor, owner);
  const entry = (await indexFor(owner, ctx.dataHome)).entries().find((e) => e.dir === dir);
  if (!entry || tenantVisible(entry, visibleTenants(await tenantCaller(ctx.db, ctx.actor)))) return;
  throw notFound(`The skill ${ref.skill} does not exist in the ${ref.layer} layer (it may have been deleted or renamed).`);
}

/**
 * A deleted skill has no folder left to index, so its tenants are read from the SKILL.md kept in its "delete"
 * version: a caller none of whose tenants it was scoped to neither lists nor restores it (issue #40).
 */
export async function deletedSkillVisibility(ctx: SkillsContext): Promise<(snapshot: Snapshot | null) => boolean> {
  const tenants = visibleTenants(await tenantCaller(ctx.db, ctx.actor));
  return (snapshot) => {
    if (tenants === "all") return true;
    const kept = keptSkill(snapshot);
    return !kept || tenantVisible(kept, tenants); // nothing kept (a removed link): nothing to scope
  };
}

/** The name and scope of the SKILL.md a "delete" version kept; null when it kept none. */
export function keptSkill(snapshot: Snapshot | null): (Pick<SkillEntry, "scope"> & { name?: string }) | null {
  const text = snapshot?.files.find((f) => f.path === "SKILL.md")?.text;
  if (text === undefined) return null;
  const { name, scope } = checkSkillSource(text, { dir: "deleted", rules: "omniforge" }).properties ?? {};
  return { ...(typeof name === "string" ? { name } : {}), ...(scope ? { scope } : {}) };
}

/**
 * The doors that take a version's id (read one, restore one) name no folder, so they ask here: the version's skill
 * as the folder doors see it, or, once its folder is gone, as its last deletion kept it. Another tenant's version
 * "does not exist", in readVersion's words.
 */
export async function assertVersionVisible(ctx: SkillsContext, versionId: number): Promise<void> {
  const row = await getVersion(ctx.db, versionId);
  if (!row) return; // the door says it does not exist
  const ref = refFromHistory(row);
  await assertTenantVisible(ctx, ref);
  let gone = false;
  try {
    gone = !fs.existsSync(skillDirOf(ctx.dataHome, normaliseRef(ref, ctx.actor)));
  } catch {
    return; // a ref that names no folder: the door refuses it
  }
  if (!gone) return;
  const key = (r: { layer: string; ownerId: string | null; plugin: string | null; skill: string }) => JSON.stringify([r.layer, r.ownerId, r.plugin, r.skill]);
  const deletion = (await deleteRows(ctx.db)).find((d) => key(d) === key(row));
  if (deletion && !(await deletedSkillVisibility(ctx))(parseSnapshot(deletion.snapshot))) throw notFound(`Version ${versionId} does not exist.`);
}

/** Whether a door that names a skill only by a stored key (a trigger run, its overview) may show it: as the file doors decide, without their words. */
export async function tenantSees(ctx: SkillsContext, ref: SkillRef): Promise<boolean> {
  try {
    await assertTenantVisible(ctx, ref);
    return true;
  } catch (e) {
    if (e instanceof SkillServiceError && (e.code === "NOT_FOUND" || e.code === "FORBIDDEN")) return false;
    throw e;
  }
}
