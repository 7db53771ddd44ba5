// Policy changes, one small operation at a time (so two admins editing different rules never overwrite each
// other), each validated and recorded as a policy_changed audit event with the whole policy before and after.
import type { Db } from "../../../db/client";
import { inTransaction } from "../../../db/transaction";
import type { Audited } from "../../runtime/audit/events";
import type { StoredPolicy } from "../policy/normalise";
import { readStoredPolicy, writeStoredPolicy } from "../policy/store";
import { applyPolicyChange, type PolicyChange } from "./policy-rules";

export type { PolicyChange } from "./policy-rules";

// Defined in the domain so the runtime's doctor reads the same list; re-exported for the policy router.
export { VENDOR_WORD_PATTERNS } from "../../domain/vocabulary";

/** Applies and stores one change, then records policy_changed with before and after. Returns the new policy. */
export async function changePolicy(db: Db, change: PolicyChange, by: Audited): Promise<StoredPolicy> {
  // One transaction so two concurrent changes read-modify-write in turn.
  const { before, after } = await inTransaction(db, async (tx) => {
    const before = await readStoredPolicy(tx);
    const after = applyPolicyChange(before, change);
    await writeStoredPolicy(tx, after, by.actor.id);
    return { before, after };
  });
  const changed = JSON.stringify(before) !== JSON.stringify(after);
  by.audit.record({
    type: "policy_changed",
    actor: by.actor,
    outcome: "ok",
    ...("name" in change ? { skill: change.name } : {}),
    ...("layer" in change ? { layer: change.layer } : {}),
    details: { change, before, after, changed },
  });
  return after;
}
