// The policy as a document (`omniforge policy export|import`, policy kept in git): YAML with the stored policy's
// fields. An import is checked whole first; any wrong entry refuses the file with every problem named (by its
// key path) and changes nothing. A good file replaces the policy as one audited policy_changed event.
import { stringify } from "yaml";
import type { Db } from "../../../db/client";
import { inTransaction } from "../../../db/transaction";
import type { Audited } from "../../runtime/audit/events";
import type { StoredPolicy } from "../policy/normalise";
import { readStoredPolicy, writeStoredPolicy } from "../policy/store";
import { GovernanceError } from "./errors";
import { checkPolicyDocument } from "./policy-rules";

export async function exportPolicy(db: Db): Promise<string> {
  const p = await readStoredPolicy(db);
  return `# OmniForge policy (omniforge policy export). Edit and load with: omniforge policy import <file>\n${stringify(p, { lineWidth: 0 })}`;
}

/** Replaces the stored policy with a checked document: one policy_changed event with before and after. */
export async function importPolicy(db: Db, text: string, by: Audited & { source?: string }): Promise<{ before: StoredPolicy; after: StoredPolicy; changed: boolean }> {
  const checked = checkPolicyDocument(text);
  if ("problems" in checked) throw new GovernanceError("BAD_REQUEST", `the policy file was refused, nothing changed:\n${checked.problems.map((x) => `  ${x}`).join("\n")}`, { problems: checked.problems });
  const { before, after } = await inTransaction(db, async (tx) => {
    const before = await readStoredPolicy(tx);
    await writeStoredPolicy(tx, checked.policy, by.actor.id);
    return { before, after: await readStoredPolicy(tx) };
  });
  const changed = JSON.stringify(before) !== JSON.stringify(after);
  by.audit.record({ type: "policy_changed", actor: by.actor, outcome: "ok", details: { change: { op: "import", ...(by.source ? { source: by.source } : {}) }, before, after, changed } });
  return { before, after, changed };
}
