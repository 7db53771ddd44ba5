import { z } from "zod";
import * as drafts from "../../../services/drafts";
import { skillActor } from "../../../services/skills";
import { authedProcedure, createTRPCRouter, type AuthedContext } from "../../trpc";
import { ZSkillRef } from "../skill/skill.schema";

// Editor drafts of the signed-in user only: the service narrows every query to ctx.user.
const svc = async (ctx: AuthedContext) => ({ db: ctx.db, actor: await skillActor(ctx.db, ctx.user) });
const ZPath = z.string().min(1).max(1024);

export const draftRouter = createTRPCRouter({
  list: authedProcedure.input(z.object({ ref: ZSkillRef })).query(async ({ ctx, input }) => drafts.listDrafts(await svc(ctx), input.ref)),
  save: authedProcedure
    .input(
      z.object({
        ref: ZSkillRef,
        path: ZPath,
        text: z.string().max(2 * 1024 * 1024, "Files edited in the browser are limited to 2 MiB."),
        baseDigest: z.string().regex(/^[0-9a-f]{64}$/).nullable(),
      }),
    )
    .mutation(async ({ ctx, input }) => drafts.saveDraft(await svc(ctx), input)),
  discard: authedProcedure.input(z.object({ ref: ZSkillRef, path: ZPath.optional() })).mutation(async ({ ctx, input }) => drafts.discardDrafts(await svc(ctx), input.ref, input.path)),
});
