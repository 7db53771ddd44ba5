// The stored policy's shape and its normaliser, apart from the store: the --policy file check and the browser need
// them without SQLite or drizzle.
import type { RegistryPolicy } from "../../runtime/registry/types";

export type StoredPolicy = Omit<RegistryPolicy, "approvedDigests"> & {
  /** Administrators may change (not only review) any user's personal skills. Off: they read them only. */
  adminsEditPersonal?: boolean;
};

/** Keeps only the fields of a StoredPolicy, so an old or hand-edited row never smuggles in approvedDigests. */
export function normalisePolicy(raw: Partial<StoredPolicy> | null | undefined): StoredPolicy {
  const p = raw ?? {};
  const out: StoredPolicy = {
    blockedNames: Array.isArray(p.blockedNames) ? p.blockedNames.filter((x) => typeof x === "string") : [],
    disabled: Array.isArray(p.disabled)
      ? p.disabled
          .filter((d) => d && typeof d.name === "string" && typeof d.layer === "string")
          .map((d) => ({ name: d.name, layer: d.layer, ...(d.plugin ? { plugin: d.plugin } : {}) }))
      : [],
  };
  if (Array.isArray(p.allowlist)) out.allowlist = p.allowlist.filter((x) => typeof x === "string");
  if (Array.isArray(p.forbiddenNamePatterns) && p.forbiddenNamePatterns.length) {
    out.forbiddenNamePatterns = p.forbiddenNamePatterns.filter((x) => typeof x === "string");
  }
  if (p.requireApprovalForScripts) out.requireApprovalForScripts = true;
  if (p.requireApprovalForProject) out.requireApprovalForProject = true;
  if (p.requireApprovalForSources) out.requireApprovalForSources = true;
  if (p.nameMustMatchFolder) out.nameMustMatchFolder = true;
  if (p.allowReservedNames) out.allowReservedNames = true;
  if (p.adminsEditPersonal) out.adminsEditPersonal = true;
  return out;
}
