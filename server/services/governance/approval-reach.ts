// The approvals an admin sees and may decide (issue #40). The global admin: all. A tenant admin sees the waiting
// versions of the skills they can see (their tenants' and unscoped ones, personal skills of the users they manage)
// and decides only those scoped to their tenants alone or personal to their users: an unscoped shared skill, or one
// also of another tenant, reaches people who are not theirs.
import type { Db } from "../../../db/client";
import type { Approval } from "../../../db/schema";
import type { DataHome } from "../../config";
import { tenantVisible } from "../../runtime/registry";
import { adminReach, skillsInReach, usersInReach } from "../tenants/admin-reach";
import { syncApprovals, type ApprovalItem } from "./approvals";
import { ownerOf } from "./context";
import { allDefinitions } from "./definitions";
import { GovernanceError } from "./errors";

type Who = { id: string; role: string };

const keyOf = (layer: string, owner: string | null, plugin: string | null, skill: string) => JSON.stringify([layer, owner, plugin, skill]);

export interface ApprovalsInReach {
  /** Every waiting (or decided, current) version the admin sees, each saying whether they may decide it. */
  items: (ApprovalItem & { mayDecide: boolean })[];
  /** Whether a past decision is of a skill the admin sees (a tenant admin: never another tenant's, not even by name). */
  sees(row: Pick<Approval, "layer" | "ownerId" | "plugin" | "skill">): boolean;
}

export async function approvalsInReach(db: Db, dataHome: DataHome, who: Who): Promise<ApprovalsInReach> {
  const reach = await adminReach(db, who);
  const managed = await usersInReach(db, who);
  const decidable = await skillsInReach(db, who);
  // Two definitions under one key (two project folders) are decided together: each must be within reach.
  const scopes = new Map<string, (readonly string[] | undefined)[]>();
  const seen = (await allDefinitions(dataHome, who.id)).filter((e) => {
    const owner = ownerOf(e, dataHome);
    if (!tenantVisible(e, reach) || (owner !== null && !managed(owner))) return false;
    const key = keyOf(e.layer, owner, e.plugin ?? null, e.name);
    scopes.set(key, [...(scopes.get(key) ?? []), e.scope?.tenants]);
    return true;
  });
  const items = (await syncApprovals(db, dataHome, seen)).map((i) => {
    const personalOwner = i.layer === "personal" ? i.ownerId : null;
    const each = scopes.get(keyOf(i.layer, i.ownerId, i.plugin, i.skill)) ?? [undefined];
    return { ...i, mayDecide: each.every((scopeTenants) => decidable({ scopeTenants, personalOwner })) };
  });
  return { items, sees: (r) => reach === "all" || scopes.has(keyOf(r.layer, r.ownerId, r.plugin, r.skill)) };
}

/**
 * Refuses a tenant admin's review or decision of an approval that is not theirs to see or decide: FORBIDDEN (audited),
 * without the skill's name. The global admin passes; the decision itself says when the approval does not exist.
 */
export async function assertApprovalInReach(db: Db, dataHome: DataHome, who: Who, id: number, want: "review" | "decide"): Promise<void> {
  if ((await adminReach(db, who)) === "all") return;
  const item = (await approvalsInReach(db, dataHome, who)).items.find((i) => i.id === id);
  if (item && (want === "review" || item.mayDecide)) return;
  throw new GovernanceError(
    "FORBIDDEN",
    item
      ? `approval #${id} is of a skill that reaches beyond your tenants (unscoped, or also another tenant's): only the global admin decides it`
      : `approval #${id} is not one of your tenants' skills`,
    { code: "tenant.outside-reach" },
  );
}
