// Where a run's skills come from (stage 1: effective entries) and how one is loaded on activation
// (stage 2: body, digest and the fields activation needs: allowed-tools, context, hooks).
import { resolveAll } from "../registry/resolve";
import type { SkillEntry } from "../registry/types";
import type { SkillIndex } from "../registry/skill-index";
import { checkSkillDir } from "../skill/check";
import type { SearchOptions, SearchResult, SkillSearch } from "../search/engine";
import { buildSearch, searchFor } from "../search/follow";
import type { AgentSkillSource } from "./types";
import { provenanceOfRoot, type SourceProvenance } from "../sources/roots";

export interface LoadedSkill {
  name: string;
  layer: string;
  digest: string;
  baseDir: string;
  file: string;
  body: string;
  allowedTools?: string[];
  context: "inherit" | "fork";
  hooks?: { pre?: string; post?: string };
  /** The frontmatter as parsed (JSON-safe), for spec 004 receipts: license, compatibility, metadata, allowed-tools... */
  properties: Record<string, unknown>;
  /** The model the skill asks for while it is active (skill-model.ts). */
  model?: string;
  /** The sub-agent type that runs a fork skill (fork-agent.ts). */
  agent?: string;
  /** The git source it comes from (#39: provenance in the audit rows). */
  source?: SourceProvenance;
}

/** Whether the run has skills turned off, by its option or by its resolution context (config.yaml). */
export function skillsOff(opts: { skillsEnabled?: boolean; skills: AgentSkillSource }): boolean {
  return opts.skillsEnabled === false || (!Array.isArray(opts.skills) && opts.skills.context?.skillsEnabled === false);
}

/** The context the run's skills were resolved for: the option, else the resolution context's values or defaults. */
export function scopeOf(opts: { scope?: { tenant?: string; agent?: string; environment?: string }; skills: AgentSkillSource }) {
  if (opts.scope) return opts.scope;
  if (Array.isArray(opts.skills) || !opts.skills.context) return undefined;
  const c = opts.skills.context;
  const d = c.scopeDefaults ?? {};
  return { tenant: c.tenant ?? d.tenant, agent: c.agent ?? d.agent, environment: c.environment ?? d.environment };
}

/** One active definition per name: the list as given, or the index resolved with the context (policy, scope). */
export function effectiveSkills(source: AgentSkillSource): SkillEntry[] {
  const list = Array.isArray(source) ? source : resolveAll(source.index, source.context ?? {}).skills;
  return list.filter((e) => e.loadable);
}

/** YAML may give dates and other objects; a receipt is JSON. */
function jsonSafe(v: Record<string, unknown>): Record<string, unknown> {
  try {
    return JSON.parse(JSON.stringify(v)) as Record<string, unknown>;
  } catch {
    return {};
  }
}

export class SkillLoadError extends Error {}

/**
 * Reads SKILL.md now (what the agent gets is what is on disk), so the digest in receipts and the audit is the
 * content actually loaded, even when the file changed after indexing.
 */
export function loadSkill(entry: SkillEntry): LoadedSkill {
  const check = checkSkillDir(entry.dir, { rules: "omniforge" });
  if (!check.loadable || !check.properties || check.body === null) {
    const first = check.diagnostics.find((d) => d.severity === "error");
    throw new SkillLoadError(`Skill '${entry.name}' does not load: ${first?.message ?? "SKILL.md could not be parsed"}`);
  }
  const p = check.properties;
  return {
    name: entry.name,
    layer: entry.layer,
    digest: check.digest,
    baseDir: entry.dir,
    file: check.file ?? entry.file,
    body: check.body,
    ...(p.allowedTools && p.allowedTools.length ? { allowedTools: p.allowedTools } : {}),
    context: p.context ?? "inherit",
    ...(p.hooks && (p.hooks.pre || p.hooks.post) ? { hooks: p.hooks } : {}),
    properties: jsonSafe({ ...(check.raw ?? {}), name: p.name, description: p.description }),
    ...(p.model?.trim() ? { model: p.model.trim() } : {}),
    ...(typeof check.raw?.agent === "string" && check.raw.agent.trim() ? { agent: check.raw.agent.trim() } : {}),
    ...withSource(entry.root),
  };
}

function withSource(root: string): { source?: SourceProvenance } {
  const source = provenanceOfRoot(root);
  return source ? { source } : {};
}

/**
 * The one ranking over a run's skills: the search that follows the registry index (or one built for a given
 * list), limited to the effective entries, so a blocked, disabled or out-of-scope skill is never found.
 */
export function searchOf(source: AgentSkillSource, entries: SkillEntry[], index?: SkillIndex): (request: string, opts?: Omit<SearchOptions, "only">) => SearchResult {
  const search: SkillSearch = !Array.isArray(source) ? searchFor(source.index) : index ? searchFor(index) : buildSearch(entries);
  const only = new Set(entries.map((e) => e.id));
  return (request, opts = {}) => search.search(request, { ...opts, only });
}
