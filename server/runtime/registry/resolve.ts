// Resolution that explains itself: for a name, every definition with its status and a readable reason.
// Order: layer (enterprise > personal > project > plugin) always first; `priority` only within a layer;
// plugin ties go to the latest install (with a warning). Definitions kept out by policy, scope, approval or
// errors do not compete, except a broken enterprise definition, which holds the name (see below).
import fs from "node:fs";
import { LAYER_ORDER, layerRank } from "./layers";
import { approvalReason, blockReason, disabledReason, folderNameReason, scopeReason } from "./policy";
import type { Candidate, EffectiveSkills, Resolution, ResolveContext, SkillEntry } from "./types";
import { count } from "../../domain/plural";

export interface DefinitionSource {
  definitions(name: string): SkillEntry[];
  names(): string[];
}

const ORDER_TEXT = LAYER_ORDER.join(" > ");
const PROJECT_FIRST = ["enterprise", "project", "personal", "plugin"] as const;
const orderText = (p: ResolveContext["precedence"]) => (p === "project-first" ? `${PROJECT_FIRST.join(" > ")} (precedence: project-first in config.yaml)` : ORDER_TEXT);
const rankIn = (p: ResolveContext["precedence"]) => (p === "project-first" ? (l: SkillEntry["layer"]) => PROJECT_FIRST.indexOf(l) : layerRank);

/** "name@plugin" addresses one plugin's skill; skill names cannot contain "@". */
export function parseSkillRef(ref: string): { name: string; plugin?: string } {
  const at = ref.lastIndexOf("@");
  return at > 0 ? { name: ref.slice(0, at), plugin: ref.slice(at + 1) } : { name: ref };
}

/** Precedence order of definitions of one name. Stable: equal keys keep index (folder) order. */
export function precedenceSort(defs: SkillEntry[], precedence?: ResolveContext["precedence"]): SkillEntry[] {
  if (defs.length < 2) return defs.slice(); // most names have one definition: nothing to order
  const layerRank = rankIn(precedence);
  return defs
    .map((e, i) => ({ e, i }))
    .sort(
      (a, b) =>
        layerRank(a.e.layer) - layerRank(b.e.layer) ||
        b.e.priority - a.e.priority ||
        (a.e.layer === "plugin" ? (b.e.installedAt ?? "").localeCompare(a.e.installedAt ?? "") : 0) ||
        a.i - b.i,
    )
    .map((x) => x.e);
}

const where = (e: SkillEntry) => (e.plugin ? `the plugin "${e.plugin}" definition` : `the ${e.layer} definition`);

function firstError(e: SkillEntry): string {
  const d = e.diagnostics.find((x) => x.severity === "error");
  return d ? `${d.message} (line ${d.line})` : "SKILL.md could not be read";
}

function shadowReason(entry: SkillEntry, active: SkillEntry, precedence?: ResolveContext["precedence"]): string {
  if (entry.layer !== active.layer) return `shadowed by ${where(active)}: ${orderText(precedence)}`;
  if (active.priority !== entry.priority) {
    return `shadowed by ${where(active)} at ${active.dir} with higher priority (${active.priority} > ${entry.priority}); priority only orders definitions within a layer`;
  }
  if (entry.layer === "plugin") {
    return `shadowed by ${where(active)}, installed later (${active.installedAt}): equal priority ${active.priority}, the latest install wins`;
  }
  return `shadowed by ${active.dir} in the same layer with equal priority ${active.priority}: the first folder in layer order wins`;
}

/** What config.yaml turns off: every skill (skills.enabled: false) or these names (disabled_skills). */
function configDisabled(entry: SkillEntry, ctx: ResolveContext): string | null {
  if (ctx.skillsEnabled === false) return "skill loading is off (skills.enabled: false in config.yaml, or OMNIFORGE_SKILLS_ENABLED=0)";
  if (ctx.disabledNames?.includes(entry.name)) return "disabled in config.yaml (disabled_skills)";
  return null;
}

export function resolve(index: DefinitionSource, ref: string, ctx: ResolveContext = {}): Resolution {
  const { name, plugin } = parseSkillRef(ref);
  let defs = index.definitions(name);
  if (plugin !== undefined) defs = defs.filter((e) => e.layer === "plugin" && e.plugin === plugin);
  const ordered = precedenceSort(defs, ctx.precedence);
  const policy = ctx.policy;
  const blocked = blockReason(name, policy);
  const candidates: Candidate[] = [];
  const eligible: Candidate[] = [];
  for (const entry of ordered) {
    let status: Candidate["status"] | null = null;
    let reason = "";
    const folderName = entry.loadable ? folderNameReason(entry, policy) : null;
    if (!entry.loadable) [status, reason] = ["invalid", `does not load: ${firstError(entry)}`];
    else if (folderName) [status, reason] = ["invalid", folderName];
    else if (blocked) [status, reason] = ["blocked", blocked];
    else {
      // In this order, the first that applies; each is asked only when the ones before it did not apply.
      let why: string | null;
      if ((why = configDisabled(entry, ctx) ?? disabledReason(entry, policy)) !== null) [status, reason] = ["disabled", why];
      else if ((why = scopeReason(entry, ctx)) !== null) [status, reason] = ["out-of-scope", why];
      else if ((why = approvalReason(entry, policy)) !== null) [status, reason] = ["pending-approval", why];
    }
    const c: Candidate = { entry, status: status ?? "shadowed", reason };
    candidates.push(c);
    if (!status) eligible.push(c);
  }

  const warnings: string[] = [];
  // An enterprise definition that does not load still holds its name: otherwise a typo in a compliance
  // skill would silently hand the name to the project or plugin variant it was meant to override.
  const brokenEnterprise = ordered.find((e) => e.layer === "enterprise" && !e.loadable);
  const enterpriseUsable = eligible.some((c) => c.entry.layer === "enterprise");
  const held = brokenEnterprise && !enterpriseUsable && plugin === undefined;
  let active: SkillEntry | null = null;
  if (held) {
    for (const c of eligible) {
      c.reason = `held by the enterprise definition at ${brokenEnterprise.dir}, which does not load: lower layers cannot take its place until it is fixed`;
    }
    warnings.push(`"${name}": the enterprise definition does not load, so no definition of this name is active`);
  } else if (eligible.length) {
    const w = eligible[0]!;
    active = w.entry;
    w.status = "active";
    const rivals = eligible.filter((c) => c !== w && c.entry.layer === active!.layer);
    const tiedWithActive = rivals.some((r) => r.entry.priority === active!.priority);
    w.reason =
      `wins: ${where(active)} comes first (${ORDER_TEXT})` +
      (!rivals.length
        ? ""
        : !tiedWithActive
          ? `; highest priority (${active.priority}) in its layer`
          : active.layer === "plugin"
            ? `; among plugins with equal priority ${active.priority} the latest install wins`
            : `; first folder among definitions with equal priority ${active.priority}`);
    for (const c of eligible.slice(1)) c.reason = shadowReason(c.entry, active, ctx.precedence);
    const tied = rivals.filter((r) => r.entry.priority === active!.priority);
    if (tied.length) {
      warnings.push(
        active.layer === "plugin"
          ? `"${name}": plugins ${[active, ...tied.map((t) => t.entry)].map((e) => `"${e.plugin}"`).join(", ")} define it with equal priority ${active.priority}; the latest install ("${active.plugin}") wins. Set priority to choose explicitly.`
          : `"${name}": ${tied.length + 1} definitions in the ${active.layer} layer have equal priority ${active.priority}; ${active.dir} wins by folder order. Set priority to choose explicitly.`,
      );
    }
  }
  const label = plugin !== undefined ? `${name}@${plugin}` : name;
  const summary = active
    ? `${label}: ${where(active)} is active (${count(candidates.length, "definition")})`
    : candidates.length
      ? `${label}: no active definition (${candidates.map((c) => `${c.entry.layer}: ${c.status}`).join(", ")})`
      : `${label}: no definition in any layer`;
  return { name, ...(plugin !== undefined ? { plugin } : {}), active, candidates, warnings, summary };
}

/** The effective skill set (one active definition per name) with the explanation of every name. */
export function resolveAll(index: DefinitionSource, ctx: ResolveContext = {}): EffectiveSkills {
  const byName: Record<string, Resolution> = {};
  const skills: SkillEntry[] = [];
  for (const name of index.names()) {
    const r = resolve(index, name, ctx);
    byName[name] = r;
    if (r.active) skills.push(r.active);
  }
  return { skills, byName };
}

/**
 * How many other definitions of a skill's name sit in its own layer: all that its `priority` can order it
 * against (layers decide first). Undefined when the folder is not a definition of that name here.
 */
export function layerRivals(source: DefinitionSource, dir: string, name: string): number | undefined {
  const defs = source.definitions(name);
  const self = defs.find((e) => e.dir === dir) ?? defs.find((e) => sameFolder(e.dir, dir));
  if (!self) return undefined;
  return defs.filter((e) => e !== self && e.layer === self.layer).length;
}

function sameFolder(a: string, b: string): boolean {
  try {
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return false;
  }
}
