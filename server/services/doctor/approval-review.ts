// An approval as the admin reviews it (issue 41 item 3): governance's view of the waiting version (its text, what
// is active now, the diff) with the doctor's findings for it, silenced ones marked, as the approval gate reads them.
import { doctorSkill, type Finding } from "../../runtime/doctor";
import { approvalReview, type ApprovalReview } from "../governance/approval-review";
import type { SkillsContext } from "../skills";
import { readDoctorPolicy } from "./policy";

export async function reviewApproval(ctx: SkillsContext, id: number): Promise<ApprovalReview & { findings: Finding[] }> {
  const { dir, ...review } = await approvalReview(ctx.db, ctx.dataHome, ctx.actor.id, id);
  return { ...review, findings: doctorSkill(dir, { ignore: (await readDoctorPolicy(ctx.db)).ignore }).findings };
}
