// Activation and deactivation with their audit events, so the skill tool, skills.load/unload and the
// agent loop's end-of-run cleanup all change the stack the same way.
import { maskSecrets } from "./audit-args";
import type { PushResult } from "./stack";
import { sessionAuditFields } from "./session-audit";
import type { ActiveSkill, ToolContext } from "./types";

/** Longest `args` an audit row keeps (the model sees them whole). */
const AUDIT_ARGS_CHARS = 2000;

/**
 * Pushes the skill (tagged with the current run unless told otherwise) and records skill_activated, with the
 * invocation's arguments when it had any (seed 000: they travel with the invocation), secrets masked.
 */
export function activateSkill(ctx: ToolContext, skill: ActiveSkill, args?: string): PushResult {
  const entry: ActiveSkill = { ...skill, activatedBy: skill.activatedBy ?? ctx.runId ?? "session", activatedAt: Date.now() };
  const result = ctx.stack.push(entry);
  ctx.audit.record({
    type: "skill_activated",
    ...sessionAuditFields(ctx),
    skill: entry.name,
    layer: entry.layer,
    digest: entry.digest,
    outcome: "ok",
    details: {
      allowedTools: entry.allowedTools ?? null,
      activatedBy: entry.activatedBy,
      ...(result === "reactivated" ? { reactivated: true } : {}),
      ...(args ? { args: maskSecrets(args).slice(0, AUDIT_ARGS_CHARS) } : {}),
      ...(entry.source ? { source: entry.source } : {}),
      ...runFields(ctx),
      stack: ctx.stack.list().map((s) => s.name),
    },
  });
  return result;
}

/** The run (a correlation id) and the context its skills were resolved for, as seeds 000 and 001 ask of the audit. */
function runFields(ctx: ToolContext) {
  const scope = Object.fromEntries(Object.entries(ctx.scope ?? {}).filter(([, v]) => v !== undefined && v !== ""));
  return { ...(ctx.runId ? { runId: ctx.runId } : {}), ...(Object.keys(scope).length ? { context: scope } : {}) };
}

/** Records skill_deactivated for each removed skill, in the given order, with the stack as it is now. */
export function recordDeactivated(ctx: ToolContext, removed: ActiveSkill[], reason: string): void {
  for (const s of removed) {
    ctx.audit.record({
      type: "skill_deactivated",
      ...sessionAuditFields(ctx),
      skill: s.name,
      layer: s.layer,
      digest: s.digest,
      outcome: "ok",
      details: {
        reason,
        ...runFields(ctx),
        ...(s.activatedAt !== undefined ? { activeMs: Math.max(0, Date.now() - s.activatedAt) } : {}),
        stack: ctx.stack.list().map((x) => x.name),
      },
    });
  }
}

/** Deactivates the top skill (must be `name`) or "all"; throws SkillStackError when the stack order forbids it. */
export function deactivateSkill(ctx: ToolContext, name: string | "all"): ActiveSkill[] {
  const removed = ctx.stack.pop(name);
  recordDeactivated(ctx, removed, name === "all" ? "all" : "requested");
  return removed;
}

/** Called when an agent run ends (normally or not): every skill it activated is deactivated. */
export function endRun(ctx: ToolContext, runId: string | undefined = ctx.runId): ActiveSkill[] {
  if (!runId) return [];
  const removed = ctx.stack.releaseActivatedBy(runId);
  recordDeactivated(ctx, removed, "run_finished");
  return removed;
}
