// The overview an admin opens first (issue #15): the catalog by layer and status, what is broken or waiting,
// what went wrong in the last 24 hours, the busiest skills and the latest trigger tests. Each part is what the
// page it links to shows, read through the same services (rights and audit scope included).
import type { Db } from "../../db/client";
import type { DataHome } from "./../config";
import type { AuditSink } from "../runtime/audit/events";
import { auditScopeOf } from "./audit/filter";
import { countActivations, countEvents, topSkillsByActivation } from "./audit/queries";
import { lastDay, refusalCounts } from "./audit/refusals";
import { hasRole } from "../domain/vocabulary";
import { overview as evalOverview } from "./evals";
import { approvalsInReach } from "./governance";
import { listSkills, type SkillActor } from "./skills";

export async function adminOverview(db: Db, dataHome: DataHome, audit: AuditSink, actor: SkillActor, procedure: string, now = Date.now()) {
  const ctx = { db, dataHome, audit, actor, procedure };
  const all = await listSkills(ctx, { limit: 1 });
  const invalid = await listSkills(ctx, { statuses: ["invalid"], limit: 10, sort: "name" });
  const scope = await auditScopeOf(db, actor);
  // One window for every figure of the day, carried by their links (audit/refusals.ts).
  const since = lastDay(now);
  const refusals = await refusalCounts(db, since, scope);
  // The approvals this admin would find on the Policies page (a tenant admin's reach, issue #40).
  const pending = actor.role === "admin" ? (await approvalsInReach(db, dataHome, actor)).items.filter((a) => a.status === "pending") : [];
  const evals = (await evalOverview(ctx))
    .sort((a, b) => (a.f1 ?? -1) - (b.f1 ?? -1))
    .slice(0, 8);
  return {
    /** Skills as the skills page counts them: distinct names, and the definitions they have across the layers. */
    names: all.names,
    total: all.total,
    byLayer: all.counts.layers,
    byStatus: all.counts.statuses,
    invalid: invalid.rows.map((r) => ({ name: r.name, ref: r.ref, reason: r.statusReason })),
    pendingApprovals: pending.slice(0, 10).map((p) => ({ skill: p.skill, layer: p.layer })),
    pendingCount: pending.length,
    last24h: {
      window: since,
      // Every event refused in the day (requests, tool calls, script runs, sign-ins), and by kind: what its link shows.
      refusals: refusals.total,
      refusalsByKind: refusals.byKind,
      // What the figure's link shows: script runs with the failed outcome (a refused run is a refusal, not a failure).
      scriptFailures: await countEvents(db, { ...since, type: "script_executed", outcome: "failed" }, scope),
      scriptRuns: await countEvents(db, { ...since, type: "script_executed" }, scope),
      activations: await countActivations(db, since, scope),
    },
    busiest: await topSkillsByActivation(db, since, scope, 5),
    evals,
    isAdmin: actor.role === "admin",
    /** The audit page (and its router) need the author role: a viewer's overview links nowhere there. */
    mayOpenAudit: hasRole(actor.role, "author"),
  };
}
