// Deploy from the console: copy a definition into the enterprise, personal or project layer. First a preview:
// for the default context and every environment, agent and tenant that some skill's scope names, the active
// definition before and after, computed by the registry's resolve() over the index with the copy laid on top (nothing is
// written). Then the registry's deploySkill does the atomic copy, and skill_deployed is recorded.
import path from "node:path";
import type { Audited } from "../../runtime/audit/events";
import {
  deploySkill,
  DeployError,
  isSafeSegment,
  resolve,
  writableRoot,
  type DefinitionSource,
  type LayerName,
  type ResolveContext,
  type SkillEntry,
  type SkillIndex,
} from "../../runtime/registry";
import { refreshAll } from "../catalog/catalog";
import { displayPath, scopeValues, type Places, type Viewer } from "./context";
import { GovernanceError } from "./errors";
import { atOrAbove, doctorSkill, type DoctorSeverity } from "../../runtime/doctor";
import { count } from "../../domain/plural";
import type { SkillState } from "../../domain/vocabulary";

export type DeployTarget = Exclude<LayerName, "plugin">;

export interface ActiveView {
  layer: LayerName;
  plugin?: string;
  where: string;
  digest: string;
  /** True for the copy this deploy would write. */
  isCopy: boolean;
}

export interface PreviewRow {
  /** "default" or e.g. "environment=production". */
  label: string;
  context: { environment?: string; agent?: string; tenant?: string };
  before: ActiveView | null;
  after: ActiveView | null;
  changes: boolean;
  /** Status and reason of the copy in this context (e.g. shadowed by enterprise, pending approval). */
  copyStatus: SkillState | "absent";
  copyReason: string;
}

export interface DeployPreview {
  name: string;
  from: { id: string; layer: LayerName; plugin?: string; where: string; digest: string };
  to: { layer: DeployTarget; where: string; exists: boolean };
  rows: PreviewRow[];
  changedContexts: number;
  /** The source's unsilenced doctor findings: what a deploy would spread, said before it (issue 41 item 1). */
  findings: { code: string; severity: DoctorSeverity; message: string; file: string; line: number }[];
}

/** Who deploys: a tenant admin (issue #40, the skills service's actor) writes no layer that reaches every tenant. */
type Deployer = Viewer & { tenantAdmin?: boolean };

/**
 * The layers a person may deploy into: the global admin every one; a tenant admin and an author the project layer
 * and their own personal layer (the enterprise layer reaches every tenant); viewers none.
 */
export function deployTargetsFor(viewer: Deployer): DeployTarget[] {
  if (viewer.role === "admin" && viewer.tenantAdmin !== true) return ["enterprise", "personal", "project"];
  return viewer.role === "viewer" ? [] : ["personal", "project"];
}

export function checkDeployRight(viewer: Deployer, target: LayerName): asserts target is DeployTarget {
  if (target === "plugin") throw new GovernanceError("BAD_REQUEST", "plugins are installed with `omniforge skill install`, not deployed");
  if (viewer.role === "viewer") throw new GovernanceError("FORBIDDEN", "viewers cannot deploy skills; ask an author or an administrator");
  if (target === "enterprise" && viewer.role !== "admin") {
    throw new GovernanceError("FORBIDDEN", "only administrators can deploy to the enterprise layer");
  }
  if (target === "enterprise" && viewer.tenantAdmin === true) {
    throw new GovernanceError("FORBIDDEN", "the enterprise layer reaches every tenant, so only the global admin (an admin of no tenant) deploys to it", { code: "tenant.global-admin-only" });
  }
}

function chooseSource(index: SkillIndex, name: string, fromId: string | undefined, ctx: ResolveContext): SkillEntry {
  const defs = index.definitions(name);
  if (!defs.length) throw new GovernanceError("NOT_FOUND", `no skill named "${name}" in any layer`);
  const resolution = fromId ? null : resolve(index, name, ctx);
  // A scope limits where a skill is active, not whether it may be copied (seed 000 deploys a production-only skill
  // to enterprise naming no environment): with none active here, the first definition only out of scope is taken.
  const chosen = fromId
    ? defs.find((e) => e.id === path.resolve(fromId))
    : (resolution!.active ?? resolution!.candidates.find((c) => c.status === "out-of-scope")?.entry);
  if (!chosen && fromId) throw new GovernanceError("NOT_FOUND", "that definition is not in this view any more; reload");
  if (!chosen) {
    // Which context made each definition inactive (a scope, a policy): seed 000's journey deploys a skill scoped to
    // production, which the default context (no environment) never has active.
    const why = resolution!.candidates.map((c) => `${c.entry.layer}: ${c.reason}`).join("; ");
    throw new GovernanceError("NOT_FOUND", `"${name}" has no active definition to copy in ${labelOf(contextOf(ctx))} (${why}); choose one, or give the context it is active in`);
  }
  if (!chosen.loadable) throw new GovernanceError("BAD_REQUEST", `the ${chosen.layer} definition of "${name}" does not load; fix it before deploying`);
  return chosen;
}

/** The index as it would be after the copy: the target folder replaced by (or added as) the copy. */
function withCopy(index: SkillIndex, copy: SkillEntry): DefinitionSource {
  return {
    names: () => index.names(),
    definitions: (n) => (n === copy.name ? [...index.definitions(n).filter((e) => e.id !== copy.id), copy] : index.definitions(n)),
  };
}

/** Contexts worth showing: the default, then each scope value on its own. */
export function previewContexts(entries: Iterable<SkillEntry>): PreviewRow["context"][] {
  const v = scopeValues(entries);
  return [
    {},
    ...v.environments.map((environment) => ({ environment })),
    ...v.agents.map((agent) => ({ agent })),
    ...v.tenants.map((tenant) => ({ tenant })),
  ];
}

/** The environment, agent and tenant a resolution context names (its own values, else its defaults). */
const contextOf = (ctx: ResolveContext): PreviewRow["context"] => {
  const d = ctx.scopeDefaults ?? {};
  const out: PreviewRow["context"] = {};
  for (const k of ["environment", "agent", "tenant"] as const) {
    const v = ctx[k] ?? d[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
};

const labelOf = (c: PreviewRow["context"]) =>
  Object.entries(c)
    .map(([k, v]) => `${k}=${v}`)
    .join(", ") || "default (no environment, agent or tenant)";

export function previewDeploy(
  index: SkillIndex,
  dataHome: Places,
  /** `context`: the environment, agent and tenant (and defaults) the copied definition is chosen for; none by default. */
  input: { name: string; fromId?: string; target: DeployTarget; context?: Omit<ResolveContext, "policy"> },
  policy: ResolveContext["policy"],
  /** Checks the doctor policy silences for every skill (services/doctor/policy.ts). */
  doctorIgnore: readonly string[] = [],
): DeployPreview {
  // The name becomes a folder name in the target layer: never a path (a frontmatter name could be "../x").
  if (!isSafeSegment(input.name)) throw new GovernanceError("BAD_REQUEST", `"${input.name}" cannot be deployed: a skill name used as a folder name must not contain "/" or ".."`);
  const source = chooseSource(index, input.name, input.fromId, { ...input.context, policy });
  const targetDir = path.join(writableRoot(index.config, input.target), input.name);
  if (source.dir === targetDir) throw new GovernanceError("BAD_REQUEST", `this definition already is the ${input.target} copy`);
  const exists = index.definitions(input.name).some((e) => e.id === targetDir);
  const copy: SkillEntry = {
    ...source,
    id: targetDir,
    dir: targetDir,
    file: path.join(targetDir, "SKILL.md"),
    root: writableRoot(index.config, input.target),
    layer: input.target,
    plugin: undefined,
    installedAt: undefined,
  };
  const after = withCopy(index, copy);
  const view = (e: SkillEntry | null): ActiveView | null =>
    e ? { layer: e.layer, ...(e.plugin ? { plugin: e.plugin } : {}), where: displayPath(e.dir, dataHome), digest: e.digest, isCopy: e === copy } : null;
  const rows = previewContexts(index.entries()).map((context): PreviewRow => {
    const ctx = { ...context, policy };
    // Not resolveCached: `after` is a hypothetical index that lives for this preview only, and one name's
    // resolve is cheap; a memo entry for it would never be asked for again.
    const b = resolve(index, input.name, ctx);
    const a = resolve(after, input.name, ctx);
    const copyCandidate = a.candidates.find((c) => c.entry === copy);
    const changes = (b.active?.id ?? null) !== (a.active?.id ?? null) || (b.active?.digest ?? null) !== (a.active?.digest ?? null);
    return {
      label: labelOf(context),
      context,
      before: view(b.active),
      after: view(a.active),
      changes,
      copyStatus: copyCandidate?.status ?? "absent",
      copyReason: copyCandidate?.reason ?? "",
    };
  });
  return {
    name: input.name,
    from: { id: source.id, layer: source.layer, ...(source.plugin ? { plugin: source.plugin } : {}), where: displayPath(source.dir, dataHome), digest: source.digest },
    to: { layer: input.target, where: displayPath(targetDir, dataHome), exists },
    rows,
    changedContexts: rows.filter((r) => r.changes).length,
    findings: doctorSkill(source.dir, { ignore: doctorIgnore })
      .findings.filter((f) => !f.silenced)
      .map((f) => ({ code: f.code, severity: f.severity, message: f.message, file: f.file, line: f.line })),
  };
}

export interface DeployResult {
  preview: DeployPreview;
  replaced: boolean;
  message: string;
}

/**
 * Copies the definition. `expectDigest` is the source digest the person saw in the preview: if the file
 * changed since, the deploy is refused rather than copying something nobody looked at.
 */
export function executeDeploy(
  index: SkillIndex,
  dataHome: Places,
  input: {
    name: string;
    fromId?: string;
    target: DeployTarget;
    replace: boolean;
    expectDigest?: string;
    /**
     * Given (the console), a source with a high doctor finding is deployed only when true: the person saw the
     * findings in the preview and chose to deploy anyway, and the audit event names them. The CLI leaves it out.
     */
    acceptFindings?: boolean;
    /** The environment, agent and tenant (and defaults) the copied definition is chosen for; none by default. */
    context?: Omit<ResolveContext, "policy">;
  },
  policy: ResolveContext["policy"],
  by: Audited,
  /** The doctor's gate (services/doctor/policy.ts): no unsilenced finding at or above it may be deployed. */
  doctor?: { gate: DoctorSeverity | null; ignore: string[] },
): DeployResult {
  const preview = previewDeploy(index, dataHome, input, policy, doctor?.ignore);
  if (doctor?.gate) {
    const blocking = atOrAbove(doctorSkill(preview.from.id, { ignore: doctor.ignore }).findings, doctor.gate);
    if (blocking.length) {
      throw new GovernanceError("PRECONDITION_FAILED", `${input.name} has ${count(blocking.length, "doctor finding")} at or above ${doctor.gate}; the policy requires none before a deploy: ${blocking.map((f) => `${f.code} (${f.file}:${f.line})`).join(", ")}`, {
        findings: blocking.map((f) => ({ code: f.code, severity: f.severity, message: f.message, file: f.file, line: f.line })),
      });
    }
  }
  const high = preview.findings.filter((f) => f.severity === "high");
  if (input.acceptFindings === false && high.length) {
    throw new GovernanceError("PRECONDITION_FAILED", `${input.name} has ${count(high.length, "high doctor finding")} (${high.map((f) => f.code).join(", ")}); read them in the preview, then choose to deploy anyway`, {
      code: "deploy.findings-not-accepted",
    });
  }
  if (input.expectDigest && preview.from.digest !== input.expectDigest) {
    throw new GovernanceError("CONFLICT", "the source skill changed since the preview; look at the preview again before deploying");
  }
  if (preview.to.exists && !input.replace) {
    throw new GovernanceError("CONFLICT", `${preview.to.where} already exists; confirm that the copy replaces it`);
  }
  let report;
  try {
    report = deploySkill(index, input.name, input.target, { from: { dir: preview.from.id }, force: input.replace, ctx: { ...input.context, policy } });
  } catch (e) {
    if (e instanceof DeployError) throw new GovernanceError(e.code === "deploy.not-found" ? "NOT_FOUND" : "BAD_REQUEST", e.message, { code: e.code });
    throw e;
  }
  // Other users' cached indexes see the new folder now rather than after the watcher's debounce.
  refreshAll([report.to.dir]);
  by.audit.record({
    type: "skill_deployed",
    actor: by.actor,
    outcome: "ok",
    skill: input.name,
    layer: input.target,
    digest: preview.from.digest,
    details: {
      from: { layer: preview.from.layer, plugin: preview.from.plugin, where: preview.from.where },
      to: preview.to.where,
      replaced: report.replaced,
      activeChanged: report.activeChanged,
      changedContexts: preview.rows.filter((r) => r.changes).map((r) => r.label),
      ...(input.acceptFindings && high.length ? { deployedAnyway: high.map((f) => `${f.code} (${f.file}:${f.line})`) } : {}),
      via: "console",
    },
  });
  return { preview, replaced: report.replaced, message: report.message };
}
