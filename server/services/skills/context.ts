// What every skills-service call needs: the database, the data home, the audit sink and who is acting.
import type { Db } from "../../../db/client";
import type { DataHome } from "../../config";
import type { AuditEvent, AuditSink } from "../../runtime/audit/events";
import { refreshAll } from "../catalog/catalog";
import { readStoredPolicy } from "../policy/store";
import { callerTenants } from "../tenants/membership";
import { canWrite, type SkillActor, type SkillRef } from "./location";

export interface SkillsContext {
  db: Db;
  dataHome: DataHome;
  audit: AuditSink;
  actor: SkillActor;
  /** What the actor called ("skill.readFile"): reviews of someone's personal skill are recorded with it. */
  procedure: string;
}

/** The acting user as the skills service sees them: an administrator carries what the policy grants on personal skills. */
export async function skillActor(db: Db, user: Pick<SkillActor, "id" | "email" | "role" | "tenants">): Promise<SkillActor> {
  const actor: SkillActor = { id: user.id, email: user.email, role: user.role, ...(user.tenants ? { tenants: user.tenants } : {}) };
  if (user.role === "admin" && (await readStoredPolicy(db)).adminsEditPersonal) actor.mayEditPersonal = true;
  if (user.role === "admin" && (await callerTenants(db, user)).length > 0) actor.tenantAdmin = true;
  return actor;
}

/** Records an audit event about one skill definition. */
export function auditSkill(ctx: SkillsContext, type: AuditEvent["type"], ref: SkillRef, e: { digest?: string | null; details?: Record<string, unknown> } = {}): void {
  ctx.audit.record({
    type,
    actor: { id: ctx.actor.id, email: ctx.actor.email },
    skill: ref.skill,
    layer: ref.layer,
    ...(e.digest ? { digest: e.digest } : {}),
    outcome: "ok",
    details: {
      ...(ref.plugin ? { plugin: ref.plugin } : {}),
      ...(ref.ownerId ? { ownerId: ref.ownerId } : {}),
      ...(ref.base ? { base: ref.base } : {}),
      ...e.details,
    },
  });
}

/**
 * A read of a skill the actor may read has passed: when it is someone else's personal skill (an administrator
 * reviewing it), the policies page promises each visit is on the record, so every read records who read whose
 * skill, through which procedure and which file. One event per call: the audit log has no rule for merging them.
 */
export function recordPersonalRead(ctx: SkillsContext, ref: SkillRef, what: { file?: string; versionId?: number } = {}): void {
  if (ref.layer !== "personal" || ref.ownerId === ctx.actor.id) return;
  auditSkill(ctx, "personal_skill_opened", ref, { details: { procedure: ctx.procedure, ...what, canWrite: canWrite(ctx.actor, ref) } });
}

/** The console wrote files: every cached index re-reads them now instead of after the watcher's debounce. */
export function afterWrite(paths: string[]): void {
  refreshAll(paths);
}
