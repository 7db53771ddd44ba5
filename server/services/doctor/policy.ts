// The doctor as a policy input: an admin can silence checks for the whole console and require "no findings of
// severity X" before a definition is approved. Stored as its own policy_settings row (JSON), changed with a
// policy_changed audit event (before and after), read by the report, the editor's findings and the approval.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { approvals, policySettings } from "../../../db/schema";
import { ServiceError } from "../../domain/errors";
import { atOrAbove, doctorSkill, isDoctorSeverity, unknownCodes, type DoctorSeverity, type Finding } from "../../runtime/doctor";
import { approvalDigestOf } from "../governance/approvals";
import { allDefinitions } from "../governance/definitions";
import type { SkillsContext } from "../skills";
import { count } from "../../domain/plural";

const KEY = "doctor";

export interface DoctorPolicy {
  /** Approval needs no unsilenced finding at or above this severity; null: no gate. */
  gate: DoctorSeverity | null;
  /** Codes (or "family.*") silenced for every skill. */
  ignore: string[];
}

export const EMPTY_DOCTOR_POLICY: DoctorPolicy = { gate: null, ignore: [] };

function normalise(raw: Partial<DoctorPolicy> | null | undefined): DoctorPolicy {
  const gate = typeof raw?.gate === "string" && isDoctorSeverity(raw.gate) ? raw.gate : null;
  const ignore = Array.isArray(raw?.ignore) ? raw.ignore.filter((c): c is string => typeof c === "string") : [];
  return { gate, ignore };
}

export async function readDoctorPolicy(db: Db): Promise<DoctorPolicy> {
  const row = (await db.select().from(policySettings).where(eq(policySettings.key, KEY)).limit(1))[0];
  if (!row) return { ...EMPTY_DOCTOR_POLICY };
  try {
    return normalise(JSON.parse(row.value) as DoctorPolicy);
  } catch {
    return { ...EMPTY_DOCTOR_POLICY };
  }
}

/** Admin only; unknown codes are refused (a typo would silence nothing and look like it did). */
export async function setDoctorPolicy(ctx: SkillsContext, input: DoctorPolicy): Promise<DoctorPolicy> {
  if (ctx.actor.role !== "admin") throw new ServiceError("FORBIDDEN", "only an administrator changes the doctor policy");
  const unknown = unknownCodes(input.ignore);
  if (unknown.length) throw new ServiceError("BAD_REQUEST", `unknown check ${unknown.map((c) => `"${c}"`).join(", ")}`);
  const after = normalise({ gate: input.gate, ignore: [...new Set(input.ignore.map((c) => c.trim()).filter(Boolean))] });
  const before = await readDoctorPolicy(ctx.db);
  const now = Date.now();
  const value = JSON.stringify(after);
  await ctx.db
    .insert(policySettings)
    .values({ key: KEY, value, updatedBy: ctx.actor.id, updatedAt: now })
    .onConflictDoUpdate({ target: policySettings.key, set: { value, updatedBy: ctx.actor.id, updatedAt: now } });
  ctx.audit.record({ type: "policy_changed", actor: { id: ctx.actor.id, email: ctx.actor.email }, outcome: "ok", details: { area: "doctor", before, after } });
  return after;
}

/**
 * Refuses approving a definition whose findings break the gate (PRECONDITION_FAILED, with the findings).
 * A definition no longer on disk at that digest is left to the approval itself.
 */
export async function assertApprovable(ctx: SkillsContext, approvalId: number): Promise<void> {
  const policy = await readDoctorPolicy(ctx.db);
  if (!policy.gate) return;
  const row = (await ctx.db.select().from(approvals).where(eq(approvals.id, approvalId)).limit(1))[0];
  if (!row) return;
  const entry = (await allDefinitions(ctx.dataHome, ctx.actor.id)).find(
    (e) => e.layer === row.layer && e.name === row.skill && (e.plugin ?? null) === (row.plugin ?? null) && approvalDigestOf(e) === row.digest,
  );
  if (!entry) return;
  const blocking: Finding[] = atOrAbove(doctorSkill(entry.dir, { ignore: policy.ignore }).findings, policy.gate);
  if (!blocking.length) return;
  throw new ServiceError("PRECONDITION_FAILED", `${row.skill} has ${count(blocking.length, "doctor finding")} at or above ${policy.gate}; the policy requires none before approval: ${blocking.map((f) => `${f.code} (${f.file}:${f.line})`).join(", ")}`, {
    findings: blocking.map((f) => ({ code: f.code, severity: f.severity, message: f.message, file: f.file, line: f.line })),
  });
}
