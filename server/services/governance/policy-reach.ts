// The policy as a tenant admin may read it (issue #40). The policy is the whole console's, so its rules name skills of
// every tenant; a skill scoped only to tenants the reader is not in must not be named to them, here no more than in a
// listing, nor once deleted. Rules naming such a skill are left out and counted, so the page can say some rules are
// not shown.
import fs from "node:fs";
import type { Db } from "../../../db/client";
import type { DataHome } from "../../config";
import { tenantVisible } from "../../runtime/registry";
import type { StoredPolicy } from "../policy/normalise";
import { deleteRows, parseSnapshot } from "../skills/history";
import { refFromHistory, skillDirOf, type SkillRef } from "../skills/location";
import { keptSkill } from "../skills/tenant-guard";
import { adminReach } from "../tenants/admin-reach";
import { allDefinitions } from "./definitions";

export interface PolicyInReach {
  policy: StoredPolicy;
  /** How many rules (blocked names, switched-off definitions, allowlist names) name a skill of another tenant. */
  hiddenRules: number;
}

/**
 * `policy` as `who` may read it: all of it for the global admin. For anyone else a name is hidden when some definition
 * of it exists and every one is scoped to tenants none of which is theirs; a name with no definition names nothing and
 * stays. Name patterns are shown as written: they are rules about names, not a skill's.
 */
export async function policyInReach(db: Db, dataHome: DataHome, who: { id: string; role: string }, policy: StoredPolicy): Promise<PolicyInReach> {
  const reach = await adminReach(db, who);
  if (reach === "all") return { policy, hiddenRules: 0 };
  const seen = new Set<string>();
  const foreign = new Set<string>();
  for (const e of await allDefinitions(dataHome, who.id)) (tenantVisible(e, reach) ? seen : foreign).add(e.name);
  // A deleted skill is named by its rules as long as they stay: its tenants are those of the SKILL.md its deletion
  // kept, as the deleted-skills list reads them (a folder there again is a live definition, above).
  for (const row of await deleteRows(db)) {
    const ref = refFromHistory(row);
    if (folderExists(dataHome, ref)) continue;
    const kept = keptSkill(parseSnapshot(row.snapshot));
    if (kept) (tenantVisible(kept, reach) ? seen : foreign).add(kept.name ?? ref.skill);
  }
  const hidden = (name: string) => foreign.has(name) && !seen.has(name);
  let hiddenRules = 0;
  const keep = <T>(items: T[], name: (item: T) => string): T[] =>
    items.filter((item) => {
      if (!hidden(name(item))) return true;
      hiddenRules++;
      return false;
    });
  const out: StoredPolicy = { ...policy, blockedNames: keep(policy.blockedNames, (n) => n), disabled: keep(policy.disabled, (d) => d.name) };
  if (policy.allowlist) out.allowlist = keep(policy.allowlist, (n) => n);
  return { policy: out, hiddenRules };
}

function folderExists(dataHome: DataHome, ref: SkillRef): boolean {
  try {
    return fs.existsSync(skillDirOf(dataHome, ref));
  } catch {
    return false; // a ref that names no folder
  }
}
