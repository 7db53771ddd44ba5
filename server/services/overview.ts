// The overview an admin opens first (issue #15): the catalog by layer and status, what is broken or waiting,
// what went wrong in the last 24 hours, the busiest skills and the latest trigger tests. Each part is what the
// page it links to shows, read through the same services (rights and audit scope included).
import type { Db } from "../../db/client";
import type { DataHome } from "./../config";
import type { AuditSink } from "../runtime/audit/events";
import { auditScopeOf } from "./audit/filter";
import { countActivations, countEvents, topSkillsByActivation } from "./audit/queries";
import { hasRole } from "../domain/vocabulary";
import { overview as evalOverview } from "./evals";
import { allDefinitions, syncApprovals } from "./governance";
import { listSkills, type SkillActor } from "./skills";

const DAY = 86_400_000;

export async function adminOverview(db: Db, dataHome: DataHome, audit: AuditSink, actor: SkillActor, procedure: string, now = Date.now()) {
  const ctx = { db, dataHome, audit, actor, procedure };
  const all = await listSkills(ctx, { limit: 1 });
  const invalid = await listSkills(ctx, { statuses: ["invalid"], limit: 10, sort: "name" });
  const scope = await auditScopeOf(db, actor);
  const since = { from: now - DAY };
  const pending = actor.role === "admin" ? syncApprovals(db, dataHome, await allDefinitions(dataHome, actor.id)).filter((a) => a.status === "pending") : [];
  const evals = evalOverview(ctx)
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
      refusals: countEvents(db, { ...since, type: "access_denied" }, scope),
      // What the refusals figure's link shows: every event refused in the day (requests, tool calls, script runs, sign-ins).
      refused: countEvents(db, { ...since, outcome: "refused" }, scope),
      toolViolations: countEvents(db, { ...since, type: "tool_restriction_violated" }, scope),
      // What the figure's link shows: script runs with the failed outcome (a refused run is a refusal, not a failure).
      scriptFailures: countEvents(db, { ...since, type: "script_executed", outcome: "failed" }, scope),
      scriptRuns: countEvents(db, { ...since, type: "script_executed" }, scope),
      activations: countActivations(db, since, scope),
    },
    busiest: topSkillsByActivation(db, since, scope, 5),
    evals,
    isAdmin: actor.role === "admin",
    /** The audit page (and its router) need the author role: a viewer's overview links nowhere there. */
    mayOpenAudit: hasRole(actor.role, "author"),
  };
}
