// The file doors (read a file, the tree, versions, export, the doctor's and the trigger tests' skill) name a skill by
// its folder, not through a listing: a skill scoped to tenants none of which is the caller's is "does not exist"
// there too (issue #40), with the very words a missing folder gets, so the answer tells nothing.
import { tenantVisible } from "../../runtime/registry";
import { visibleTenants } from "../../domain/tenants";
import { indexFor } from "../catalog/catalog";
import { tenantCaller } from "../tenants/gate";
import type { SkillsContext } from "./context";
import { notFound } from "./errors";
import { normaliseRef, skillDirOf, type SkillRef } from "./location";

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
  const entry = (await indexFor(owner, ctx.dataHome)).entries().find((e) => e.dir === dir);
  if (!entry || tenantVisible(entry, visibleTenants(await tenantCaller(ctx.db, ctx.actor)))) return;
  throw notFound(`The skill ${ref.skill} does not exist in the ${ref.layer} layer (it may have been deleted or renamed).`);
}
