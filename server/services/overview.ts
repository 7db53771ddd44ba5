// The overview an admin opens first (issue #15): the catalog by layer and status, what is broken or waiting,
// what went wrong in the last 24 hours, the busiest skills and the latest trigger tests. Each part is what the
// page it links to shows, read through the same services (rights and audit scope included).
import type { Db } from "../../db/client";
import type { DataHome } from "./../config";
import type { AuditSink } from "../runtime/audit/events";
import { auditScopeFor } from "./audit/filter";
import { countEvents, scriptRunsByExitStatus, topSkillsByActivation } from "./audit/queries";
import { overview as evalOverview } from "./evals";
import { allDefinitions, syncApprovals } from "./governance";
import { listSkills, type SkillActor } from "./skills";

const DAY = 86_400_000;

export async function adminOverview(db: Db, dataHome: DataHome, audit: AuditSink, actor: SkillActor, procedure: string, now = Date.now()) {
  const ctx = { db, dataHome, audit, actor, procedure };
  const all = await listSkills(ctx, { limit: 1 });
  const invalid = await listSkills(ctx, { statuses: ["invalid"], limit: 10, sort: "name" });
  const scope = auditScopeFor(actor);
  const since = { from: now - DAY };
  const scripts = scriptRunsByExitStatus(db, since, scope);
  const pending = actor.role === "admin" ? syncApprovals(db, dataHome, await allDefinitions(dataHome, actor.id)).filter((a) => a.status === "pending") : [];
  const evals = evalOverview(ctx)
    .sort((a, b) => (a.f1 ?? -1) - (b.f1 ?? -1))
    .slice(0, 8);
  return {
    total: all.total,
    byLayer: all.counts.layers,
    byStatus: all.counts.statuses,
    invalid: invalid.rows.map((r) => ({ name: r.name, ref: r.ref, reason: r.statusReason })),
    pendingApprovals: pending.slice(0, 10).map((p) => ({ skill: p.skill, layer: p.layer })),
    pendingCount: pending.length,
    last24h: {
      refusals: countEvents(db, { ...since, type: "access_denied" }, scope),
      toolViolations: countEvents(db, { ...since, type: "tool_restriction_violated" }, scope),
      scriptFailures: scripts.filter((s) => s.status !== "exit 0").reduce((n, s) => n + s.n, 0),
      scriptRuns: scripts.reduce((n, s) => n + s.n, 0),
      activations: countEvents(db, { ...since, type: "skill_activated" }, scope),
    },
    busiest: topSkillsByActivation(db, since, scope, 5),
    evals,
    isAdmin: actor.role === "admin",
  };
}
