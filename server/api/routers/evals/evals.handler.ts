// Thin handlers over the evals service (trigger tests, issue #17). Errors are ServiceErrors: the serviceErrors
// middleware maps them and audits refusals.
import type { z } from "zod";
import { offloadText } from "../../../services/offload/pool";
import * as evals from "../../../services/evals";
import { availableProviders } from "../../../services/playground/providers";
import { assertTenantVisible, type SkillsContext } from "../../../services/skills";
import type { AuthedContext } from "../../trpc";
import type * as S from "./evals.schema";

type In<T extends z.ZodType> = z.infer<T>;
const svc = (ctx: AuthedContext): SkillsContext => ({ db: ctx.db, dataHome: ctx.dataHome, audit: ctx.audit, actor: { id: ctx.user.id, email: ctx.user.email, role: ctx.user.role }, procedure: ctx.procedure });

export const getSet = async ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZRefInput> }) => {
  await assertTenantVisible(svc(ctx), input.ref);
  return evals.readTriggerSet(svc(ctx), input.ref);
};
export const saveSet = async ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZSaveSetInput> }) => {
  await assertTenantVisible(svc(ctx), input.ref);
  return evals.saveTriggerSet(svc(ctx), input.ref, input.cases, input.baseDigest);
};
/** An imported triggers.json, checked without saving (the table shows its cases and diagnostics first), off the request thread. */
export const parseSet = async ({ input }: { input: In<typeof S.ZParseSetInput> }) => {
  const p = await offloadText("parseTriggers", input.text);
  return { cases: p.value, diagnostics: p.diagnostics };
};
export const providers = () => availableProviders();
export const start = async ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZStartInput> }) => {
  await assertTenantVisible(svc(ctx), input.ref);
  return evals.startRun(svc(ctx), input);
};
export const get = ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZRunInput> }) => evals.getRun(svc(ctx), input.id);
export const list = async ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZRefInput> }) => {
  await assertTenantVisible(svc(ctx), input.ref);
  return evals.listRuns(svc(ctx), input.ref);
};
export const cancel = ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZRunInput> }) => evals.cancelRun(svc(ctx), input.id);
export const overview = ({ ctx }: { ctx: AuthedContext }) => evals.overview(svc(ctx));
/** Minutes with a model provider (K iterations, each scoring the whole set N times): the author waits for it. */
export const suggest = async ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZSuggestInput> }) => {
  await assertTenantVisible(svc(ctx), input.ref);
  return evals.suggestForSkill(svc(ctx), input);
};
export const applyDescription = ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZApplyDescriptionInput> }) => evals.applyDescription(svc(ctx), input);
