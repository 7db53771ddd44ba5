// Thin handlers over the skills service: build its context from the tRPC context and call it. Errors are
// SkillServiceErrors (ServiceErrors): the serviceErrors middleware maps them and audits refusals as access_denied.
import { z } from "zod";
import * as drafts from "../../../services/drafts";
import { checkWithProblems } from "../../../services/doctor/problems";
import { keysWithErrors } from "../../../services/doctor/problem-counts";
import * as skills from "../../../services/skills";
import type { AuthedContext } from "../../trpc";
import type * as S from "./skill.schema";

type In<T extends z.ZodType> = z.infer<T>;

const svc = async (ctx: AuthedContext): Promise<skills.SkillsContext> => ({
  db: ctx.db,
  dataHome: ctx.dataHome,
  audit: ctx.audit,
  actor: await skills.skillActor(ctx.db, ctx.user),
  procedure: ctx.procedure,
});

/** Services throw SkillServiceError (a ServiceError): the serviceErrors middleware maps it and audits refusals. */
async function run<T>(_ctx: AuthedContext, _what: string, fn: () => T | Promise<T>): Promise<T> {
  return await fn();
}

/** run() on one skill: a skill of a tenant that is not the caller's does not exist for them (issue #40). */
async function runOn<T>(ctx: AuthedContext, ref: skills.SkillRef, what: string, fn: () => T | Promise<T>): Promise<T> {
  return run(ctx, what, async () => {
    await skills.assertTenantVisible(await svc(ctx), ref);
    return fn();
  });
}

export const list = ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZListInput> }) => run(ctx, "skill.list", async () => {
  const { owner, problems, ...query } = input;
  const c = await svc(ctx);
  // "With errors": the rows of the user's own catalog whose one problem list holds an error.
  const keys = problems && !owner ? await keysWithErrors(c) : undefined;
  return skills.listSkills(c, { ...query, ...(keys ? { keys } : {}) }, owner);
});

export const search = ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZSearchInput> }) => run(ctx, "skill.search", async () => skills.searchSkills(await svc(ctx), input.q, input.limit));

export const info = ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZRefInput> }) => runOn(ctx, input.ref, "skill.info", async () => skills.skillInfo(await svc(ctx), input.ref));

export const readFile = ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZFileInput> }) =>
  runOn(ctx, input.ref, "skill.readFile", async () => skills.readSkillFile(await svc(ctx), input.ref, input.path));

export const check = ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZCheckInput> }) => runOn(ctx, input.ref, "skill.check", async () => checkWithProblems(await svc(ctx), input.ref, input.text));

export const disclosure = ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZRefInput> }) =>
  runOn(ctx, input.ref, "skill.disclosure", async () => skills.skillDisclosure(await svc(ctx), input.ref));

/** A conflict is an answer, not a failure: the editor needs both texts and the diff to show the conflict view. */
export const save = ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZSaveInput> }) =>
  runOn(ctx, input.ref, "skill.save", async () => {
    try {
      const c = await svc(ctx);
      const saved = await skills.saveFile(c, input);
      // The saved text ends the saver's draft of that file; else the next open offers text older than the save
      // (the editor drops a draft only once it has sent one of its own, which a quick save never did).
      await drafts.discardDrafts(c, input.ref, input.path);
      return { status: "saved" as const, ...saved };
    } catch (e) {
      if (e instanceof skills.SkillConflictError) return conflictResult(e);
      throw e;
    }
  });

function conflictResult(e: skills.SkillConflictError) {
  return { status: "conflict" as const, path: e.path, theirs: e.theirs, theirsDigest: e.theirsDigest, yours: e.yours, diff: e.diff, message: e.message };
}

export const createFile = ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZCreateFileInput> }) =>
  runOn(ctx, input.ref, "skill.createFile", async () =>
    input.kind === "folder" ? skills.createFolder(await svc(ctx), input.ref, input.path) : (await skills.createFile(await svc(ctx), input.ref, input.path, input.text ?? "")),
  );

export const rename = ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZRenameInput> }) =>
  runOn(ctx, input.ref, "skill.rename", async () => skills.renamePath(await svc(ctx), input.ref, input.from, input.to));

export const deletePath = ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZFileInput> }) =>
  runOn(ctx, input.ref, "skill.deletePath", async () => skills.deletePath(await svc(ctx), input.ref, input.path));

export const versions = ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZRefInput> }) =>
  runOn(ctx, input.ref, "skill.versions", async () => {
    skills.skillTree(await svc(ctx), input.ref); // rights and existence
    return skills.listVersions(ctx.db, { ...input.ref, ownerId: input.ref.layer === "personal" ? (input.ref.ownerId ?? ctx.user.id) : undefined });
  });

export const version = ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZVersionInput> }) =>
  run(ctx, "skill.version", async () => {
    await skills.assertVersionVisible(await svc(ctx), input.id);
    const v = await skills.readVersion(await svc(ctx), input.id);
    return { id: v.id, path: v.path, action: v.action, content: v.content, digest: v.digest, authorEmail: v.authorEmail, createdAt: v.createdAt, message: v.message };
  });

export const restore = ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZRestoreInput> }) =>
  run(ctx, "skill.restore", async () => {
    await skills.assertVersionVisible(await svc(ctx), input.id);
    try {
      return { status: "saved" as const, ...(await skills.restoreVersion(await svc(ctx), input.id, input.baseDigest)) };
    } catch (e) {
      if (e instanceof skills.SkillConflictError) return conflictResult(e);
      throw e;
    }
  });

export const targets = ({ ctx }: { ctx: AuthedContext }) => run(ctx, "skill.targets", async () => ({ ...skills.writableTargets(await svc(ctx)), templates: skills.SKILL_TEMPLATES.map((t) => ({ id: t.id, label: t.label })) }));

export const nameCheck = ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZNameCheckInput> }) =>
  run(ctx, "skill.nameCheck", async () => skills.checkNewName(await svc(ctx), { layer: input.layer, plugin: input.plugin }, input.name));

export const create = ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZCreateSkillInput> }) => run(ctx, "skill.create", async () => skills.createSkill(await svc(ctx), input));

export const remove = ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZDeleteSkillInput> }) =>
  runOn(ctx, input.ref, "skill.delete", async () => skills.deleteSkill(await svc(ctx), input.ref, input.message));

export const deleted = ({ ctx }: { ctx: AuthedContext }) => run(ctx, "skill.deleted", async () => skills.listDeleted(await svc(ctx)));

export const restoreDeleted = ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZVersionInput> }) =>
  run(ctx, "skill.restoreDeleted", async () => skills.restoreDeleted(await svc(ctx), input.id));

export const importZip = ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZImportInput> }) =>
  run(ctx, "skill.import", async () => {
    const data = Buffer.from(input.base64, "base64");
    return skills.importArchive(await svc(ctx), { layer: input.layer, plugin: input.plugin, fileName: input.fileName, data, dryRun: input.dryRun, folder: input.folder, replace: input.replace });
  });

export const exportZip = ({ ctx, input }: { ctx: AuthedContext; input: In<typeof S.ZRefInput> }) =>
  runOn(ctx, input.ref, "skill.export", async () => {
    const out = skills.exportZip(await svc(ctx), input.ref);
    return { fileName: out.fileName, base64: Buffer.from(out.data).toString("base64") };
  });

export const vocabulary = () => skills.editorVocabulary();

// Procedure names that are reserved words cannot name a const: the router finds these handlers by these names.
export { remove as delete, importZip as import, exportZip as export };
