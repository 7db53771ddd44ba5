// The governance policy, persisted as one JSON document, plus the approved digests from the approvals table.
// The registry's resolution takes the result as plain data (RegistryPolicy).
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { approvals, policySettings } from "../../../db/schema";
import { approvalKey, EMPTY_POLICY, type LayerName, type RegistryPolicy } from "../../runtime/registry";

export type StoredPolicy = Omit<RegistryPolicy, "approvedDigests">;

export function readStoredPolicy(db: Db): StoredPolicy {
  const row = db.select().from(policySettings).where(eq(policySettings.key, "policy")).get();
  if (!row) return { ...EMPTY_POLICY };
  try {
    return { ...EMPTY_POLICY, ...(JSON.parse(row.value) as StoredPolicy) };
  } catch {
    return { ...EMPTY_POLICY };
  }
}

/** approvalKey -> digest for every approved definition (the key format is the registry's approvalKey). */
export function approvedDigests(db: Db): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of db.select().from(approvals).where(eq(approvals.status, "approved")).orderBy(approvals.id).all()) {
    const key = approvalKey({ layer: a.layer as LayerName, name: a.skill, plugin: a.plugin ?? undefined });
    // Newest decision wins when a definition was approved more than once.
    out[key] = a.digest;
  }
  return out;
}

/** The policy resolution applies: stored settings plus approvals. */
export function effectivePolicy(db: Db): RegistryPolicy {
  return { ...readStoredPolicy(db), approvedDigests: approvedDigests(db) };
}
