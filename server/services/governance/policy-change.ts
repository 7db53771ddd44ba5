// Policy changes, one small operation at a time (so two admins editing different rules never overwrite each
// other), each validated and recorded as a policy_changed audit event with the whole policy before and after.
import type { Db } from "../../../db/client";
import type { Audited } from "../../runtime/audit/events";
import { isLayerName, type LayerName } from "../../runtime/registry";
import { compileNamePattern } from "../../runtime/registry/name-pattern";
import { normalisePolicy, readStoredPolicy, writeStoredPolicy, type StoredPolicy } from "../policy/store";
import { GovernanceError } from "./errors";

export type PolicyChange =
  | { op: "block"; name: string; /** Kept in the audit event only. */ reason?: string }
  | { op: "unblock"; name: string }
  | { op: "disable"; name: string; layer: LayerName; plugin?: string }
  | { op: "enable"; name: string; layer: LayerName; plugin?: string }
  /** null turns allowlist mode off; a list (even empty) turns it on. */
  | { op: "setAllowlist"; names: string[] | null }
  | { op: "setForbiddenPatterns"; patterns: string[] }
  | { op: "setRequireApproval"; scripts?: boolean; project?: boolean }
  | { op: "setAdminsEditPersonal"; allow: boolean }
  | { op: "setNameMustMatchFolder"; on: boolean };

// Defined in the domain so the runtime's doctor reads the same list; re-exported for the policy router.
export { VENDOR_WORD_PATTERNS } from "../../domain/vocabulary";

// Names as they appear in SKILL.md files (lenient: a broken name must still be blockable).
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

function checkName(name: string): string {
  const n = name.trim();
  if (!NAME.test(n)) {
    throw new GovernanceError("BAD_REQUEST", `"${name}" is not a skill name: use letters, digits, dots, dashes or underscores (at most 128)`);
  }
  return n;
}

function checkPattern(p: string): string {
  const pattern = p.trim();
  if (!pattern) throw new GovernanceError("BAD_REQUEST", "an empty pattern would match every name");
  if (pattern.length > 200) throw new GovernanceError("BAD_REQUEST", "patterns are limited to 200 characters");
  let compiled;
  try {
    // The registry's own matcher: what it refuses (lookarounds, backreferences, huge counts) can never be saved.
    compiled = compileNamePattern(pattern);
  } catch (e) {
    throw new GovernanceError("BAD_REQUEST", `${pattern} ${(e as Error).message}`);
  }
  if (compiled.match("")) throw new GovernanceError("BAD_REQUEST", `${pattern} matches the empty name, so it would block every skill`);
  return pattern;
}

const uniqSorted = (xs: string[]) => [...new Set(xs)].sort();

/** Applies one change to a policy (pure); throws GovernanceError on bad input. */
export function applyPolicyChange(before: StoredPolicy, change: PolicyChange): StoredPolicy {
  const p: StoredPolicy = normalisePolicy(structuredClone(before));
  switch (change.op) {
    case "block":
      p.blockedNames = uniqSorted([...p.blockedNames, checkName(change.name)]);
      break;
    case "unblock":
      p.blockedNames = p.blockedNames.filter((n) => n !== change.name);
      break;
    case "disable":
    case "enable": {
      if (!isLayerName(change.layer)) throw new GovernanceError("BAD_REQUEST", `unknown layer "${change.layer}"`);
      const name = checkName(change.name);
      const plugin = change.layer === "plugin" && change.plugin ? checkName(change.plugin) : undefined;
      const same = (d: StoredPolicy["disabled"][number]) => d.name === name && d.layer === change.layer && (d.plugin ?? undefined) === plugin;
      p.disabled = p.disabled.filter((d) => !same(d));
      if (change.op === "disable") p.disabled.push({ name, layer: change.layer, ...(plugin ? { plugin } : {}) });
      p.disabled.sort((a, b) => a.name.localeCompare(b.name) || a.layer.localeCompare(b.layer));
      break;
    }
    case "setAllowlist":
      if (change.names === null) delete p.allowlist;
      else p.allowlist = uniqSorted(change.names.map(checkName));
      break;
    case "setForbiddenPatterns": {
      const patterns = uniqSorted(change.patterns.map(checkPattern));
      if (patterns.length) p.forbiddenNamePatterns = patterns;
      else delete p.forbiddenNamePatterns;
      break;
    }
    case "setRequireApproval":
      if (change.scripts !== undefined) {
        if (change.scripts) p.requireApprovalForScripts = true;
        else delete p.requireApprovalForScripts;
      }
      if (change.project !== undefined) {
        if (change.project) p.requireApprovalForProject = true;
        else delete p.requireApprovalForProject;
      }
      break;
    case "setAdminsEditPersonal":
      if (change.allow) p.adminsEditPersonal = true;
      else delete p.adminsEditPersonal;
      break;
    case "setNameMustMatchFolder":
      if (change.on) p.nameMustMatchFolder = true;
      else delete p.nameMustMatchFolder;
      break;
  }
  return normalisePolicy(p);
}

/** Applies and stores one change, then records policy_changed with before and after. Returns the new policy. */
export function changePolicy(db: Db, change: PolicyChange, by: Audited): StoredPolicy {
  // One transaction so two concurrent changes read-modify-write in turn (better-sqlite3 is synchronous).
  const { before, after } = db.transaction(() => {
    const before = readStoredPolicy(db);
    const after = applyPolicyChange(before, change);
    writeStoredPolicy(db, after, by.actor.id);
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
