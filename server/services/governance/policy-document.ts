// The policy as a document (`omniforge policy export|import`, policy kept in git): YAML with the stored policy's
// fields. An import is checked whole first; any wrong entry refuses the file with every problem named (by its
// key path) and changes nothing. A good file replaces the policy as one audited policy_changed event.
import { parse, stringify } from "yaml";
import type { Db } from "../../../db/client";
import type { Audited } from "../../runtime/audit/events";
import { normalisePolicy, readStoredPolicy, writeStoredPolicy, type StoredPolicy } from "../policy/store";
import { applyPolicyChange, type PolicyChange } from "./policy-change";
import { GovernanceError } from "./errors";

const KEYS = ["blockedNames", "disabled", "allowlist", "forbiddenNamePatterns", "requireApprovalForScripts", "requireApprovalForProject", "nameMustMatchFolder", "adminsEditPersonal"] as const;

export function exportPolicy(db: Db): string {
  const p = readStoredPolicy(db);
  return `# OmniForge policy (omniforge policy export). Edit and load with: omniforge policy import <file>\n${stringify(p, { lineWidth: 0 })}`;
}

/** The policy a document describes, or every problem in it (nothing is applied when there is one). */
export function checkPolicyDocument(text: string): { policy: StoredPolicy } | { problems: string[] } {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (e) {
    return { problems: [`not valid YAML (nor JSON): ${(e as Error).message.split("\n")[0]}`] };
  }
  if (raw === null || raw === undefined) raw = {};
  if (typeof raw !== "object" || Array.isArray(raw)) return { problems: ["the file must be a mapping of policy fields"] };
  const doc = raw as Record<string, unknown>;
  const problems: string[] = [];
  for (const k of Object.keys(doc)) if (!(KEYS as readonly string[]).includes(k)) problems.push(`${k}: unknown field (known: ${KEYS.join(", ")})`);
  let p: StoredPolicy = normalisePolicy({});
  // Each entry goes through the same checks as a change made in the console, so the rules cannot differ.
  const step = (path: string, change: PolicyChange) => {
    try {
      p = applyPolicyChange(p, change);
    } catch (e) {
      problems.push(`${path}: ${(e as Error).message}`);
    }
  };
  const list = (k: string): unknown[] | null => {
    const v = doc[k];
    if (v === undefined || v === null) return null;
    if (!Array.isArray(v)) {
      problems.push(`${k}: must be a list`);
      return null;
    }
    return v;
  };
  list("blockedNames")?.forEach((n, i) => (typeof n === "string" ? step(`blockedNames[${i}]`, { op: "block", name: n }) : problems.push(`blockedNames[${i}]: must be a name`)));
  list("disabled")?.forEach((d, i) => {
    const o = d as { name?: unknown; layer?: unknown; plugin?: unknown };
    if (!o || typeof o.name !== "string" || typeof o.layer !== "string") return void problems.push(`disabled[${i}]: needs name and layer`);
    step(`disabled[${i}]`, { op: "disable", name: o.name, layer: o.layer as never, ...(typeof o.plugin === "string" ? { plugin: o.plugin } : {}) });
  });
  const allow = list("allowlist");
  if (allow) {
    if (allow.every((n) => typeof n === "string")) step("allowlist", { op: "setAllowlist", names: allow as string[] });
    else problems.push("allowlist: every entry must be a name");
  }
  const patterns = list("forbiddenNamePatterns");
  if (patterns) {
    patterns.forEach((x, i) => {
      if (typeof x !== "string") problems.push(`forbiddenNamePatterns[${i}]: must be text`);
      else step(`forbiddenNamePatterns[${i}]`, { op: "setForbiddenPatterns", patterns: [...(p.forbiddenNamePatterns ?? []), x] });
    });
  }
  for (const k of ["requireApprovalForScripts", "requireApprovalForProject"] as const) {
    const v = doc[k];
    if (v === undefined || v === null) continue;
    if (typeof v !== "boolean") problems.push(`${k}: must be true or false`);
    else step(k, { op: "setRequireApproval", [k === "requireApprovalForScripts" ? "scripts" : "project"]: v });
  }
  const strict = doc.nameMustMatchFolder;
  if (strict !== undefined && strict !== null) {
    if (typeof strict !== "boolean") problems.push("nameMustMatchFolder: must be true or false");
    else step("nameMustMatchFolder", { op: "setNameMustMatchFolder", on: strict });
  }
  const edit = doc.adminsEditPersonal;
  if (edit !== undefined && edit !== null) {
    if (typeof edit !== "boolean") problems.push("adminsEditPersonal: must be true or false");
    else step("adminsEditPersonal", { op: "setAdminsEditPersonal", allow: edit });
  }
  return problems.length ? { problems } : { policy: p };
}

/** Replaces the stored policy with a checked document: one policy_changed event with before and after. */
export function importPolicy(db: Db, text: string, by: Audited & { source?: string }): { before: StoredPolicy; after: StoredPolicy; changed: boolean } {
  const checked = checkPolicyDocument(text);
  if ("problems" in checked) throw new GovernanceError("BAD_REQUEST", `the policy file was refused, nothing changed:\n${checked.problems.map((x) => `  ${x}`).join("\n")}`, { problems: checked.problems });
  const { before, after } = db.transaction(() => {
    const before = readStoredPolicy(db);
    writeStoredPolicy(db, checked.policy, by.actor.id);
    return { before, after: readStoredPolicy(db) };
  });
  const changed = JSON.stringify(before) !== JSON.stringify(after);
  by.audit.record({ type: "policy_changed", actor: by.actor, outcome: "ok", details: { change: { op: "import", ...(by.source ? { source: by.source } : {}) }, before, after, changed } });
  return { before, after, changed };
}
