// Policy and scope checks for one definition. Pure functions over data: each returns the reason a person
// reads when the definition is kept out, or null when it may be active. No node: imports: the policies page's
// pattern preview runs matchesPattern in the browser.
import { POLICY_NAME_MAX_CHARS } from "../../domain/limits";
import { nfkc } from "../skill/name-rule";
import { compileNamePattern, type CompiledPattern } from "./name-pattern";
import type { RegistryPolicy, ResolveContext, SkillEntry } from "./types";

/**
 * A skill name as a policy holds it: the form the loader gives names (trimmed, NFKC), so a rule matches exactly the
 * skills it names, whatever characters they use. Null when empty or longer than POLICY_NAME_MAX_CHARS.
 */
export function policyName(written: string): string | null {
  const name = nfkc(written.trim());
  return name && name.length <= POLICY_NAME_MAX_CHARS ? name : null;
}

/** Key of a definition in `approvedDigests`: "layer:name", and "plugin:name@plugin" for plugin skills. */
export function approvalKey(entry: Pick<SkillEntry, "layer" | "name" | "plugin">): string {
  return entry.layer === "plugin" && entry.plugin ? `plugin:${entry.name}@${entry.plugin}` : `${entry.layer}:${entry.name}`;
}

const compiled = new Map<string, CompiledPattern | { unusable: string }>();

function compiledPattern(pattern: string): CompiledPattern | { unusable: string } {
  let c = compiled.get(pattern);
  if (c === undefined) {
    try {
      c = compileNamePattern(pattern);
    } catch (e) {
      c = { unusable: (e as Error).message };
    }
    if (compiled.size >= 500) compiled.clear();
    compiled.set(pattern, c);
  }
  return c;
}

/**
 * Why a stored forbidden-name pattern cannot be checked (one saved before patterns were checked, with a lookaround
 * or a backreference the linear matcher cannot run), or null when it can.
 */
export function unusablePattern(pattern: string): string | null {
  const c = compiledPattern(pattern);
  return "unusable" in c ? c.unusable : null;
}

/**
 * Whether a forbidden-name pattern (a word, or a /regular expression/) matches a name, in time linear in the
 * name's length whatever the pattern (name-pattern.ts): a policy stored before patterns were checked cannot hang
 * a listing either. A pattern that cannot be checked matches every name: a block rule that silently blocked
 * nothing would be worse than one that holds everything back with its reason (blockReason).
 */
export function matchesPattern(name: string, pattern: string): boolean {
  const c = compiledPattern(pattern);
  return "unusable" in c ? true : c.match(name);
}

/** Why the name is blocked everywhere (block list, forbidden pattern, allowlist), or null. */
export function blockReason(name: string, policy: RegistryPolicy | undefined): string | null {
  if (!policy) return null;
  if (policy.blockedNames.includes(name)) return `blocked by policy: the name "${name}" is on the block list`;
  const pattern = policy.forbiddenNamePatterns?.find((p) => matchesPattern(name, p));
  if (pattern !== undefined) {
    const why = unusablePattern(pattern);
    if (why) return `blocked by policy: the forbidden pattern ${pattern} ${why}, so no name can be checked against it; an administrator must rewrite it on the policies page`;
    return `blocked by policy: the name "${name}" matches the forbidden pattern ${pattern}`;
  }
  if (policy.allowlist && !policy.allowlist.includes(name)) {
    return `blocked by policy: only allowlisted skills may be active and "${name}" is not on the allowlist`;
  }
  return null;
}

export function disabledReason(entry: SkillEntry, policy: RegistryPolicy | undefined): string | null {
  if (entry.disabledInFile) return "disabled in its SKILL.md (disabled: true)";
  const rule = policy?.disabled.find(
    (d) => d.name === entry.name && d.layer === entry.layer && (!d.plugin || d.plugin === entry.plugin),
  );
  if (!rule) return null;
  return `disabled by policy in the ${entry.layer} layer${rule.plugin ? ` (plugin "${rule.plugin}")` : ""}`;
}

const list = (xs: string[]) => `[${xs.join(", ")}]`;

/**
 * Absent scope lists mean "everywhere". A scoped skill is active only when the context matches: a caller that
 * names no environment (agent, tenant) gets the admin's default, and without one the scope does not match,
 * so a prod-only skill never reaches a caller who did not say where it runs.
 */
export function scopeReason(entry: SkillEntry, ctx: ResolveContext): string | null {
  const s = entry.scope;
  if (!s) return null;
  const fields: [string[] | undefined, "environment" | "agent" | "tenant"][] = [
    [s.environments, "environment"],
    [s.agents, "agent"],
    [s.tenants, "tenant"],
  ];
  for (const [allowed, what] of fields) {
    if (!allowed || !allowed.length) continue;
    const given = ctx[what];
    const fallback = ctx.scopeDefaults?.[what];
    const actual = given ?? fallback;
    if (actual === undefined) {
      return `out of scope: limited to ${what}s ${list(allowed)} and this context names no ${what} (none given, no default set)`;
    }
    if (!allowed.includes(actual)) {
      const from = given === undefined ? ` (the default, from ${ctx.scopeDefaults?.from?.[what] ?? "the settings"})` : "";
      return `out of scope: limited to ${what}s ${list(allowed)}, this context's ${what} is "${actual}"${from}`;
    }
  }
  return null;
}

/** The policy's name rule: a definition whose name differs from its folder is invalid when the policy says so. */
export function folderNameReason(entry: SkillEntry, policy: RegistryPolicy | undefined): string | null {
  if (!policy?.nameMustMatchFolder) return null;
  // The validator already compared them (NFKC, as names are matched); its diagnostic is the one source of the rule.
  if (!entry.diagnostics.some((d) => d.code === "name.directory-mismatch")) return null;
  return `its name "${entry.name}" differs from its folder "${entry.dir.split(/[\\/]/).pop()}", which the policy does not allow: rename the folder or the skill`;
}

/**
 * Approval is bound to entry.approvalDigest (SKILL.md, plus scripts/ when present): an edited skill needs a new
 * approval. Enterprise is exempt (admins deployed it).
 */
export function approvalReason(entry: SkillEntry, policy: RegistryPolicy | undefined): string | null {
  if (!policy || entry.layer === "enterprise") return null;
  const why: string[] = [];
  if (policy.requireApprovalForScripts && entry.hasScripts) why.push("skills with scripts");
  if (policy.requireApprovalForProject && entry.layer === "project") why.push("project skills");
  if (!why.length) return null;
  const approved = policy.approvedDigests?.[approvalKey(entry)];
  if (approved === entry.approvalDigest) return null;
  const short = entry.approvalDigest.slice(0, 12);
  if (approved) {
    return `pending approval: an earlier version (${approved.slice(0, 12)}) was approved, this edited version (${short}) needs a new approval`;
  }
  return `pending approval: ${why.join(" and ")} need an admin approval of this exact version (${short})`;
}
