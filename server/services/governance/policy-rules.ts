// The policy's rules as pure functions, with no database: one change (applyPolicyChange, the console's and the
// CLI's edits) and a whole document (checkPolicyDocument: `policy import` and every --policy file). The CLI loads
// this alone to check a --policy file; the store's SQLite modules would cost a third of a second per run.
import { parse } from "yaml";
import { isLayerName, type LayerName } from "../../runtime/registry";
import { compileNamePattern } from "../../runtime/registry/name-pattern";
import { policyName } from "../../runtime/registry/policy";
import { POLICY_NAME_MAX_CHARS } from "../../domain/limits";
import { normalisePolicy, type StoredPolicy } from "../policy/normalise";
import { GovernanceError } from "./errors";

export type PolicyChange =
  | { op: "block"; name: string; /** Kept in the audit event only. */ reason?: string }
  | { op: "unblock"; name: string }
  | { op: "disable"; name: string; layer: LayerName; plugin?: string }
  | { op: "enable"; name: string; layer: LayerName; plugin?: string }
  /** null turns allowlist mode off; a list (even empty) turns it on. */
  | { op: "setAllowlist"; names: string[] | null }
  | { op: "setForbiddenPatterns"; patterns: string[] }
  | { op: "setRequireApproval"; scripts?: boolean; project?: boolean; sources?: boolean }
  | { op: "setAdminsEditPersonal"; allow: boolean }
  | { op: "setNameMustMatchFolder"; on: boolean }
  | { op: "setAllowReservedNames"; allow: boolean };

// Skill names as the loader reads them from SKILL.md files: any characters, since a name that breaks the spec's
// rule still loads (leniently) and must still be blockable. Plugins are folders, named as layers.ts accepts them.
const PLUGIN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

function checkName(name: string): string {
  const n = policyName(name);
  if (n === null) throw new GovernanceError("BAD_REQUEST", `a skill name is 1 to ${POLICY_NAME_MAX_CHARS} characters`);
  return n;
}

function checkPlugin(name: string): string {
  const n = name.trim();
  if (!PLUGIN.test(n)) throw new GovernanceError("BAD_REQUEST", `"${name}" is not a plugin name: use letters, digits, dots, dashes or underscores (at most 128)`);
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
      const plugin = change.layer === "plugin" && change.plugin ? checkPlugin(change.plugin) : undefined;
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
      if (change.sources !== undefined) {
        if (change.sources) p.requireApprovalForSources = true;
        else delete p.requireApprovalForSources;
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
    case "setAllowReservedNames":
      if (change.allow) p.allowReservedNames = true;
      else delete p.allowReservedNames;
      break;
  }
  return normalisePolicy(p);
}

const KEYS = ["blockedNames", "disabled", "allowlist", "forbiddenNamePatterns", "requireApprovalForScripts", "requireApprovalForProject", "requireApprovalForSources", "nameMustMatchFolder", "allowReservedNames", "adminsEditPersonal"] as const;

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
  const approvalOps = { requireApprovalForScripts: "scripts", requireApprovalForProject: "project", requireApprovalForSources: "sources" } as const;
  for (const k of Object.keys(approvalOps) as (keyof typeof approvalOps)[]) {
    const v = doc[k];
    if (v === undefined || v === null) continue;
    if (typeof v !== "boolean") problems.push(`${k}: must be true or false`);
    else step(k, { op: "setRequireApproval", [approvalOps[k]]: v });
  }
  const strict = doc.nameMustMatchFolder;
  if (strict !== undefined && strict !== null) {
    if (typeof strict !== "boolean") problems.push("nameMustMatchFolder: must be true or false");
    else step("nameMustMatchFolder", { op: "setNameMustMatchFolder", on: strict });
  }
  const reserved = doc.allowReservedNames;
  if (reserved !== undefined && reserved !== null) {
    if (typeof reserved !== "boolean") problems.push("allowReservedNames: must be true or false");
    else step("allowReservedNames", { op: "setAllowReservedNames", allow: reserved });
  }
  const edit = doc.adminsEditPersonal;
  if (edit !== undefined && edit !== null) {
    if (typeof edit !== "boolean") problems.push("adminsEditPersonal: must be true or false");
    else step("adminsEditPersonal", { op: "setAdminsEditPersonal", allow: edit });
  }
  return problems.length ? { problems } : { policy: p };
}
