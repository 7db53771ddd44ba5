// Whole skills: the name check, create from a template, delete (a version with a snapshot of every file) and
// restore of a deleted skill from that snapshot. Folders are written through the registry's staging + rename.
import fs from "node:fs";
import path from "node:path";
import { blockReason, isSafeSegment, writeSkillFolder, listPlugins, makeLayerConfig, type LayerName, type SkillFile } from "../../runtime/registry";
import { auditSkill, afterWrite, type SkillsContext } from "./context";
import { snapshotOf, existingSkillDir } from "./edit";
import { badRequest, notFound, SkillServiceError } from "./errors";
import { sha256 } from "./files";
import { deleteRows, getVersion, parseSnapshot, recordVersion, type Snapshot } from "./history";
import { assertWrite, canRead, layerRootOf, normaliseRef, refFromHistory, skillDirOf, skillPathOf, writableLayers, type SkillActor, type SkillRef } from "./location";
import { templateById } from "./templates";
import { asciiNameFrom, nameProblems as runtimeNameProblems } from "../../runtime/skill";
import { readStoredPolicy } from "../policy/store";
import { deletedSkillVisibility } from "./tenant-guard";

/**
 * Problems with a new skill name, empty when it is fine: the validator's own name rule (one rule everywhere), with
 * ASCII suggestions, since the console's folders take nothing else (below).
 */
export function nameProblems(name: string): string[] {
  if (!name) return ["Enter a name."];
  return runtimeNameProblems(name, { ascii: true })
    .filter((p) => p.severity === "error")
    .map((p) => p.message);
}

export interface NameCheck {
  ok: boolean;
  problems: string[];
  /** The name may be created but will not be active: the policy blocks it (block list, forbidden pattern, allowlist). */
  warnings: string[];
}

/** The name follows the spec and no skill folder of that name exists in the target layer; and whether policy blocks it. */
export async function checkNewName(ctx: SkillsContext, target: { layer: LayerName; plugin?: string }, name: string): Promise<NameCheck> {
  const problems = nameProblems(name);
  if (!problems.length && !isSafeSegment(name)) {
    // The spec's rule takes any lowercase letter; the console's folders take ASCII only (file systems store other
    // letters differently, and look-alikes would hide one skill behind another). Said so, with a name that would do.
    const ascii = asciiNameFrom(name);
    const instead = ascii && ascii !== name && isSafeSegment(ascii) && !nameProblems(ascii).length ? ` "${ascii}" would do.` : "";
    problems.push(`The console names skill folders in ASCII: lowercase a-z, digits and single hyphens.${instead}`);
  }
  if (!problems.length) {
    const ref = normaliseRef({ ...target, skill: name }, ctx.actor);
    if (fs.existsSync(skillDirOf(ctx.dataHome, ref))) problems.push(`A skill named ${name} already exists in the ${target.layer} layer.`);
  }
  const warnings: string[] = [];
  if (!problems.length) {
    // The registry's own rule over the stored policy, as every listing resolves it, so the form never calls a name
    // "available" that the catalog then shows as blocked.
    const blocked = blockReason(name, await readStoredPolicy(ctx.db));
    if (blocked) warnings.push(`${name} is free in the ${target.layer} layer, but ${blocked}: it would never be active. Choose another name, or ask an administrator.`);
  }
  return { ok: problems.length === 0, problems, warnings };
}

/** Where the actor may create skills: layers, plus installed plugins for the plugin layer. */
export function writableTargets(ctx: SkillsContext): { layers: LayerName[]; plugins: string[] } {
  const layers = writableLayers(ctx.actor);
  const plugins = layers.includes("plugin")
    ? listPlugins(makeLayerConfig({ home: ctx.dataHome.home, projectRoot: ctx.dataHome.projectRoot })).map((p) => p.name)
    : [];
  return { layers: plugins.length ? layers : layers.filter((l) => l !== "plugin"), plugins };
}

export function snapshotFromFiles(files: SkillFile[]): Snapshot {
  const dec = new TextDecoder("utf-8", { fatal: true });
  return {
    files: files.map((f) => {
      try {
        if (f.data.subarray(0, 8192).includes(0)) throw new Error("binary");
        return { path: f.path, text: dec.decode(f.data), executable: f.executable };
      } catch {
        return { path: f.path, base64: Buffer.from(f.data).toString("base64"), executable: f.executable };
      }
    }),
  };
}

export function filesFromSnapshot(s: Snapshot): SkillFile[] {
  return s.files.map((f) => ({
    path: f.path,
    data: f.text !== undefined ? Buffer.from(f.text, "utf8") : Buffer.from(f.base64 ?? "", "base64"),
    executable: f.executable === true,
  }));
}

export interface CreateSkillInput {
  layer: LayerName;
  plugin?: string;
  name: string;
  description: string;
  template: string;
}

export async function createSkill(ctx: SkillsContext, input: CreateSkillInput): Promise<{ ref: SkillRef; versionId: number }> {
  const ref = normaliseRef({ layer: input.layer, plugin: input.plugin, skill: input.name || "x" }, ctx.actor);
  assertWrite(ctx.actor, ref);
  const check = await checkNewName(ctx, input, input.name);
  if (!check.ok) throw badRequest(check.problems.join(" "));
  const tpl = templateById(input.template);
  if (!tpl) throw badRequest(`Unknown template "${input.template}".`);
  const description = input.description.trim() || `Describe what ${input.name} does and when to use it.`;
  if (description.length > 1024) throw badRequest("The description is longer than 1024 characters.");
  const files = tpl.files(input.name, description).map((f) => ({ path: f.path, data: Buffer.from(f.text, "utf8"), executable: f.executable === true }));
  const dir = skillDirOf(ctx.dataHome, ref);
  // Checked again after the name check's query: another request may have made it meanwhile.
  if (fs.existsSync(dir)) throw badRequest(`A skill named ${input.name} already exists in the ${input.layer} layer.`);
  fs.mkdirSync(layerRootOf(ctx.dataHome, ref), { recursive: true });
  writeSkillFolder(dir, files);
  const main = files.find((f) => f.path === "SKILL.md")!;
  const text = main.data.toString("utf8");
  const versionId = await recordVersion(ctx.db, ref, ctx.actor, {
    path: "SKILL.md",
    action: "create",
    content: text,
    digest: sha256(main.data),
    snapshot: snapshotFromFiles(files),
    message: `created from template ${tpl.id}`,
  });
  auditSkill(ctx, "skill_saved", ref, { digest: sha256(main.data), details: { action: "create", template: tpl.id, versionId } });
  afterWrite([dir]);
  return { ref, versionId };
}

/** Deletes a whole skill after keeping every file in a "delete" version (restorable). */
export async function deleteSkill(ctx: SkillsContext, input: SkillRef, message = ""): Promise<{ versionId: number }> {
  const linked = await deleteLinkedSkill(ctx, input);
  if (linked) return linked;
  const { ref, dir } = existingSkillDir(ctx, input, "write");
  const snapshot = snapshotOf(dir, dir);
  const skillMd = snapshot.files.find((f) => f.path === "SKILL.md");
  // Move aside first (atomic for readers), then remove.
  const trash = path.join(path.dirname(dir), `.trash-${path.basename(dir)}-${Date.now().toString(36)}`);
  fs.renameSync(dir, trash);
  const versionId = await recordVersion(ctx.db, ref, ctx.actor, {
    path: "",
    action: "delete",
    content: null,
    digest: skillMd?.text !== undefined ? sha256(Buffer.from(skillMd.text, "utf8")) : null,
    snapshot,
    message: message || `deleted ${ref.skill}`,
  });
  fs.rmSync(trash, { recursive: true, force: true });
  auditSkill(ctx, "skill_deleted", ref, { details: { versionId, files: snapshot.files.length } });
  afterWrite([dir]);
  return { versionId };
}

/**
 * A skill folder that is a symbolic link leaving its layer cannot be opened, but it can be removed: the link
 * itself goes (never what it points at), and the version row records that nothing was kept.
 */
async function deleteLinkedSkill(ctx: SkillsContext, input: SkillRef): Promise<{ versionId: number } | null> {
  const ref = normaliseRef(input, ctx.actor);
  const link = skillPathOf(ctx.dataHome, ref);
  const st = fs.lstatSync(link, { throwIfNoEntry: false });
  if (!st?.isSymbolicLink()) return null;
  assertWrite(ctx.actor, ref);
  let target = "";
  try {
    target = fs.readlinkSync(link);
  } catch {
    // gone meanwhile: unlink below says so
  }
  fs.unlinkSync(link);
  const versionId = await recordVersion(ctx.db, ref, ctx.actor, {
    path: "",
    action: "delete",
    content: null,
    digest: null,
    snapshot: { files: [] },
    message: `removed the link ${ref.skill} -> ${target} (what it points at was not touched)`,
  });
  auditSkill(ctx, "skill_deleted", ref, { details: { versionId, link: true, target } });
  afterWrite([link]);
  return { versionId };
}

export interface DeletedSkill {
  versionId: number;
  ref: SkillRef;
  deletedAt: number;
  deletedBy: string;
  files: number;
}

/** Deleted skills the actor may see, whose folder has not come back since. */
export async function listDeleted(ctx: SkillsContext): Promise<DeletedSkill[]> {
  const out: DeletedSkill[] = [];
  const visible = await deletedSkillVisibility(ctx);
  for (const row of (await deleteRows(ctx.db))) {
    const ref = refFromHistory(row);
    if (!canReadAs(ctx.actor, ref)) continue;
    if (fs.existsSync(skillDirOf(ctx.dataHome, ref))) continue;
    const snapshot = parseSnapshot(row.snapshot);
    if (!visible(snapshot)) continue;
    out.push({ versionId: row.id, ref, deletedAt: row.createdAt, deletedBy: row.authorEmail, files: snapshot?.files.length ?? 0 });
  }
  return out;
}

function canReadAs(actor: SkillActor, ref: SkillRef): boolean {
  // Deleted personal skills of others stay private, even for admins here.
  return ref.layer === "personal" ? ref.ownerId === actor.id : canRead(actor, ref);
}

/** Brings back a deleted skill from its "delete" version (refused when a folder of that name exists again). */
export async function restoreDeleted(ctx: SkillsContext, versionId: number): Promise<{ ref: SkillRef; versionId: number }> {
  const row = await getVersion(ctx.db, versionId);
  const snapshot = parseSnapshot(row?.snapshot ?? null);
  // Another tenant's deleted skill is "not a deleted skill" here, in the same words, so the answer tells nothing.
  if (!row || row.action !== "delete" || !(await deletedSkillVisibility(ctx))(snapshot)) throw notFound(`Version ${versionId} is not a deleted skill.`);
  const ref = normaliseRef(refFromHistory(row), ctx.actor);
  assertWrite(ctx.actor, ref);
  if (!snapshot) throw badRequest("This version has no snapshot to restore.");
  const dir = skillDirOf(ctx.dataHome, ref);
  if (fs.existsSync(dir)) throw new SkillServiceError("CONFLICT", `A skill folder ${ref.skill} exists again in the ${ref.layer} layer; rename or delete it first.`);
  const files = filesFromSnapshot(snapshot);
  fs.mkdirSync(layerRootOf(ctx.dataHome, ref), { recursive: true });
  writeSkillFolder(dir, files);
  const main = snapshot.files.find((f) => f.path === "SKILL.md");
  const newId = await recordVersion(ctx.db, ref, ctx.actor, {
    path: main ? "SKILL.md" : "",
    action: "restore",
    content: main?.text ?? null,
    digest: main?.text !== undefined ? sha256(Buffer.from(main.text, "utf8")) : null,
    snapshot,
    message: `restored the skill deleted in version ${versionId}`,
  });
  auditSkill(ctx, "skill_restored", ref, { details: { versionId: newId, from: versionId, files: files.length } });
  afterWrite([dir]);
  return { ref, versionId: newId };
}
