// Thin handlers over the doctor service. Errors are ServiceErrors: the serviceErrors middleware maps them.
import type { z } from "zod";
import * as doctor from "../../../services/doctor";
import { assertTenantVisible, type SkillsContext } from "../../../services/skills";
import { problemCounts } from "../../../services/doctor/problem-counts";
import type { AuthedContext } from "../../trpc";
import { adminReach } from "../../../services/tenants";
import type { ZRefInput } from "../evals/evals.schema";

const svc = (ctx: AuthedContext): SkillsContext => ({ db: ctx.db, dataHome: ctx.dataHome, audit: ctx.audit, actor: { id: ctx.user.id, email: ctx.user.email, role: ctx.user.role }, procedure: ctx.procedure });

export const skill = async ({ ctx, input }: { ctx: AuthedContext; input: z.infer<typeof ZRefInput> }) => {
  await assertTenantVisible(svc(ctx), input.ref);
  return doctor.skillFindings(svc(ctx), input.ref);
};
/** Each list row's problem count and worst severity, and how many skills have an error (the list and the Overview). */
export const problems = ({ ctx }: { ctx: AuthedContext }) => problemCounts(svc(ctx));
export const report = ({ ctx }: { ctx: AuthedContext }) => doctor.catalogReport(svc(ctx));
/** The doctor's policy, and whether this caller may change it (the global admin's, issue #40): the page takes the right from here. */
export const policy = async ({ ctx }: { ctx: AuthedContext }) => ({ ...(await doctor.readDoctorPolicy(ctx.db)), mayChange: (await adminReach(ctx.db, ctx.user)) === "all" });
export const setPolicy = ({ ctx, input }: { ctx: AuthedContext; input: doctor.DoctorPolicy }) => doctor.setDoctorPolicy(svc(ctx), input);
