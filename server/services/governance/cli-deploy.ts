// `omniforge skill deploy` with the console's governance: given the console's database (the command opens it, its
// PostgreSQL with DATABASE_URL or the data home's console.db), the preview and the deploy resolve with the
// console's stored policy and approvals, and skill_deployed goes into the console's audit chain; without one, the
// registry alone decides (no policy) and events stay in memory.
import type { Db } from "../../../db/client";
import { MemoryAuditSink, type AuditActor, type AuditSink } from "../../runtime/audit/events";
import { parseSkillRef, SkillIndex, type LayerConfig, type LayerName, type RegistryPolicy, type ResolveContext } from "../../runtime/registry";
import { auditSinkFor, flushAudit } from "../audit";
import { effectivePolicy } from "../policy/store";
import { executeDeploy, previewDeploy, type DeployPreview, type DeployResult, type DeployTarget } from "./deploy";
import { GovernanceError } from "./errors";
import { readDoctorPolicy } from "../doctor/policy";

export interface CliDeployOptions {
  /** Copy the definition of this layer instead of the active one. */
  fromLayer?: LayerName;
  force?: boolean;
  /** Only compute the preview. */
  dryRun?: boolean;
  actor?: AuditActor;
  /** The context (environment, agent, tenant, defaults) whose active definition is copied, as `agent run` takes it. */
  context?: Omit<ResolveContext, "policy">;
  /** The console's database and where it is (a path, or a URL without its password); none: no policy, no audit. */
  console?: { db: Db; where: string } | null;
}

export interface CliDeployOutcome {
  /** Where the policy came from: the console's database, or null (no policy applied). */
  policyFrom: string | null;
  preview: DeployPreview;
  result?: DeployResult;
  /** Where skill_deployed was recorded ("memory" without a console). */
  auditTo: string;
  events: MemoryAuditSink["events"];
}

export async function cliDeploy(config: LayerConfig, ref: string, target: DeployTarget, opts: CliDeployOptions = {}): Promise<CliDeployOutcome> {
  const db = opts.console?.db;
  const policy: RegistryPolicy | undefined = db ? await effectivePolicy(db, { userId: config.userId ?? null }) : undefined;
  const policyFrom = db ? opts.console!.where : null;
  const index = SkillIndex.build(config);
  const { name, plugin } = parseSkillRef(ref);
  let fromId: string | undefined;
  if (opts.fromLayer || plugin !== undefined) {
    const layer = plugin !== undefined ? "plugin" : opts.fromLayer!;
    const def = index.definitions(name).find((e) => e.layer === layer && (plugin === undefined || e.plugin === plugin));
    if (!def) throw new GovernanceError("NOT_FOUND", `no ${layer}${plugin ? ` (plugin "${plugin}")` : ""} definition of "${name}"`);
    fromId = def.id;
  }
  const places = { home: config.home, projectRoot: config.projectRoot };
  const preview = previewDeploy(index, places, { name, fromId, target, ...(opts.context ? { context: opts.context } : {}) }, policy);
  const memory = new MemoryAuditSink();
  if (opts.dryRun) return { policyFrom, preview, auditTo: "memory", events: memory.events };
  const audit: AuditSink = db ? auditSinkFor(db, { stdout: false }) : memory;
  const result = executeDeploy(index, places, { name, fromId, target, replace: !!opts.force, ...(opts.context ? { context: opts.context } : {}) }, policy, { audit, actor: opts.actor ?? { id: "cli" } }, db ? await readDoctorPolicy(db) : undefined);
  if (db) await flushAudit(db);
  return { policyFrom, preview, result, auditTo: db ? opts.console!.where : "memory", events: memory.events };
}

/** The preview as lines a person reads in a terminal: one per context, marked when the active definition changes. */
export function formatPreview(p: DeployPreview): string {
  const who = (w: DeployPreview["rows"][number]["before"]) => (w ? `${w.layer}${w.plugin ? ` (${w.plugin})` : ""}${w.isCopy ? " (the copy)" : ""}` : "nothing");
  const lines = [
    `deploy "${p.name}": ${p.from.layer}${p.from.plugin ? ` (${p.from.plugin})` : ""} ${p.from.where} -> ${p.to.where}${p.to.exists ? " (replaces the existing copy)" : ""}`,
    p.changedContexts === 0 ? "no agent's resolution changes:" : `${p.changedContexts} of ${p.rows.length} contexts change:`,
    ...p.rows.map((r) => {
      // Same layer before and after but a different file: the versions tell them apart.
      const v = (w: typeof r.before) => (r.changes && r.before && r.after && r.before.layer === r.after.layer && w ? ` ${w.digest.slice(0, 8)}` : "");
      const copy = r.copyStatus !== "active" && r.copyReason ? `  [copy: ${r.copyReason}]` : "";
      return `  ${r.changes ? "*" : " "} ${r.label}: ${who(r.before)}${v(r.before)} -> ${who(r.after)}${v(r.after)}${copy}`;
    }),
  ];
  return lines.join("\n") + "\n";
}
