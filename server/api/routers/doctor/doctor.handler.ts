// Thin handlers over the doctor service. Errors are ServiceErrors: the serviceErrors middleware maps them.
import type { z } from "zod";
import * as doctor from "../../../services/doctor";
import { assertTenantVisible, skillActor, type SkillsContext } from "../../../services/skills";
import { problemCounts } from "../../../services/doctor/problem-counts";
import type { AuthedContext } from "../../trpc";
import { adminReach } from "../../../services/tenants";
import type { ZRefInput } from "../evals/evals.schema";

// The actor as the skills service builds it (what the policy and the caller's tenants grant), as the skill router's.
const svc = async (ctx: AuthedContext): Promise<SkillsContext> => ({ db: ctx.db, dataHome: ctx.dataHome, audit: ctx.audit, actor: await skillActor(ctx.db, ctx.user), procedure: ctx.procedure });

export const skill = async ({ ctx, input }: { ctx: AuthedContext; input: z.infer<typeof ZRefInput> }) => {
  await assertTenantVisible(await svc(ctx), input.ref);
  return doctor.skillFindings(await svc(ctx), input.ref);
};
/** Each list row's problem count and worst severity, and how many skills have an error (the list and the Overview). */
export const problems = async ({ ctx }: { ctx: AuthedContext }) => problemCounts(await svc(ctx));
export const report = async ({ ctx }: { ctx: AuthedContext }) => doctor.catalogReport(await svc(ctx));
/** The doctor's policy, and whether this caller may change it (the global admin's, issue #40): the page takes the right from here. */
export const policy = async ({ ctx }: { ctx: AuthedContext }) => ({ ...(await doctor.readDoctorPolicy(ctx.db)), mayChange: (await adminReach(ctx.db, ctx.user)) === "all" });
export const setPolicy = async ({ ctx, input }: { ctx: AuthedContext; input: doctor.DoctorPolicy }) => doctor.setDoctorPolicy(await svc(ctx), input);
