// Thin handlers over the evals service (trigger tests, issue #17). Errors are ServiceErrors: the serviceErrors
// middleware maps them and audits refusals.
import type { z } from "zod";
import { offloadText } from "../../../services/offload/pool";
import * as evals from "../../../services/evals";
import { availableProviders } from "../../../services/playground/providers";
import { assertTenantVisible, skillActor, type SkillsContext } from "../../../services/skills";
import type { AuthedContext } from "../../trpc";
import type * as S from "./evals.schema";

type In<T extends z.ZodType> = z.infer<T>;
// The actor as the skills service builds it (what the policy and the caller's tenants grant), as the skill router's.
const svc = async (ctx: AuthedContext): Promise<SkillsContext> => ({ db: ctx.db, dataHome: ctx.dataHome, audit: ctx.audit, actor: await skillActor(ctx.db, ctx.user), procedure: ctx.procedure });

export const getSet = async ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZRefInput> }) => {
  await assertTenantVisible(await svc(ctx), input.ref);
  return evals.readTriggerSet(await svc(ctx), input.ref);
};
export const saveSet = async ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZSaveSetInput> }) => {
  await assertTenantVisible(await svc(ctx), input.ref);
  return evals.saveTriggerSet(await svc(ctx), input.ref, input.cases, input.baseDigest);
};
/** An imported triggers.json, checked without saving (the table shows its cases and diagnostics first), off the request thread. */
export const parseSet = async ({ input }: { input: In<typeof S.ZParseSetInput> }) => {
  const p = await offloadText("parseTriggers", input.text);
  return { cases: p.value, diagnostics: p.diagnostics };
};
export const providers = () => availableProviders();
export const start = async ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZStartInput> }) => {
  await assertTenantVisible(await svc(ctx), input.ref);
  return evals.startRun(await svc(ctx), input);
};
export const get = async ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZRunInput> }) => evals.getRun(await svc(ctx), input.id);
export const list = async ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZRefInput> }) => {
  await assertTenantVisible(await svc(ctx), input.ref);
  return evals.listRuns(await svc(ctx), input.ref);
};
export const cancel = async ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZRunInput> }) => evals.cancelRun(await svc(ctx), input.id);
export const overview = async ({ ctx }: { ctx: AuthedContext }) => evals.overview(await svc(ctx));
/** Minutes with a model provider (K iterations, each scoring the whole set N times): the author waits for it. */
export const suggest = async ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZSuggestInput> }) => {
  await assertTenantVisible(await svc(ctx), input.ref);
  return evals.suggestForSkill(await svc(ctx), input);
};
export const applyDescription = async ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZApplyDescriptionInput> }) => evals.applyDescription(await svc(ctx), input);
