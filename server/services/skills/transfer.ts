// Import a skill folder from a .zip (checked completely before anything is written, through the registry's
// archive checks) and export one as a .zip with the same layout: a top folder named like the skill.
import fs from "node:fs";
import path from "node:path";
import { zipSync, type Zippable } from "fflate";
import { ArchiveError, diagnosticsUnder, detectArchiveFormat, extractArchive, readSkillFolder, SkillCopyError, writeSkillFolder, isSafeSegment, type LayerName, type SkillFile } from "../../runtime/registry";
import { readStoredPolicy } from "../policy/store";
import { checkSkillSource, type Diagnostic } from "../../runtime/skill";
import { auditSkill, afterWrite, type SkillsContext } from "./context";
import { existingSkillDir, snapshotOf } from "./edit";
import { badRequest, SkillServiceError } from "./errors";
import { decodeText, sha256 } from "./files";
import { recordVersion } from "./history";
import { assertValidName } from "./valid-name";
import { snapshotFromFiles } from "./lifecycle";
import { assertWrite, layerRootOf, newRelPath, normaliseRef, skillDirOf, type SkillRef } from "./location";

/** Largest upload accepted (the archive itself); the registry's limits apply to its content. */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;

export interface ImportInput {
  layer: LayerName;
  plugin?: string;
  fileName: string;
  data: Uint8Array;
  /** Only check and report; write nothing. */
  dryRun?: boolean;
  /** Folder name to use instead of the archive's top folder. */
  folder?: string;
  /** When the folder exists: replace its files, the old ones kept in the history as the version before. */
  replace?: boolean;
}

export interface ImportReport {
  ref: SkillRef;
  folder: string;
  name: string | null;
  files: { path: string; size: number; binary: boolean }[];
  diagnostics: Diagnostic[];
  /** The skill loads (maybe with warnings). */
  loadable: boolean;
  valid: boolean;
  exists: boolean;
  imported: boolean;
  versionId?: number;
}

function folderFor(input: ImportInput, root: string, name: string | null): string {
  if (input.folder) return input.folder;
  const top = root.split("/").filter(Boolean).pop();
  if (top) return top;
  if (name && isSafeSegment(name)) return name;
  return path.basename(input.fileName).replace(/\.(zip|tar\.gz|tgz|tar)$/i, "");
}

/** Checks an archive and, unless dryRun, writes it as a new skill folder of the chosen layer. */
export async function importArchive(ctx: SkillsContext, input: ImportInput): Promise<ImportReport> {
  if (input.data.length > MAX_IMPORT_BYTES) throw badRequest(`The archive is ${input.data.length} bytes; the limit is ${MAX_IMPORT_BYTES}.`);
  const format = detectArchiveFormat(input.data, input.fileName);
  if (!format) throw badRequest("This is not a .zip (or .tar.gz) archive.", { code: "archive.format" });
  let extracted;
  try {
    extracted = await extractArchive(input.data, format);
  } catch (e) {
    if (e instanceof ArchiveError) throw badRequest(`The archive was refused: ${e.message}.`, { code: e.code });
    throw e;
  }
  // What an author may not create by hand (.git/, node_modules/) does not come in by archive either.
  for (const f of extracted.files) newRelPath(f.path);
  const skillMd = extracted.contents.get("SKILL.md") ?? extracted.contents.get("skill.md");
  if (!skillMd) throw badRequest("The archive has no SKILL.md at its top or in its top folder.", { code: "archive.no-skill" });
  const provisional = folderFor(input, extracted.root, null);
  const check = checkSkillSource(skillMd, {
    dir: path.join("/import", isSafeSegment(provisional) ? provisional : "skill"),
    fileName: extracted.contents.has("SKILL.md") ? "SKILL.md" : "skill.md",
    rules: "omniforge",
    fileExists: (rel) => extracted.contents.has(rel) || [...extracted.contents.keys()].some((k) => k.startsWith(rel.replace(/\/$/, "") + "/")),
  });
  if (!input.dryRun) assertValidName(check.raw?.name, "imported");
  const folder = folderFor(input, extracted.root, check.properties?.name ?? null);
  if (!isSafeSegment(folder)) throw badRequest(`"${folder}" cannot be a skill folder name; choose another one.`);
  const ref = normaliseRef({ layer: input.layer, plugin: input.plugin, skill: folder }, ctx.actor);
  assertWrite(ctx.actor, ref);
  const dir = skillDirOf(ctx.dataHome, ref);
  const exists = fs.existsSync(dir);
  // As the editor will show them once imported: what the policy allows (validity.ts) is no problem here either.
  const diagnostics = diagnosticsUnder(check.diagnostics, await readStoredPolicy(ctx.db));
  const valid = check.loadable && !diagnostics.some((d) => d.severity === "error");
  const files: SkillFile[] = extracted.files.map((f) => ({ path: f.path, data: extracted.contents.get(f.path)!, executable: f.executable }));
  const report: ImportReport = {
    ref,
    folder,
    name: check.properties?.name ?? null,
    files: files.map((f) => ({ path: f.path, size: f.data.length, binary: decodeText(f.data) === null })),
    diagnostics,
    loadable: check.loadable,
    valid,
    exists,
    imported: false,
  };
  if (input.dryRun) return report;
  if (!check.loadable) {
    throw badRequest("The skill cannot be loaded, so it was not imported: " + check.diagnostics.filter((d) => d.severity === "error").map((d) => d.message).join(" "), {
      code: "skill.not-loadable",
      diagnostics: check.diagnostics,
    });
  }
  if (exists && !input.replace) {
    throw new SkillServiceError("CONFLICT", `A skill folder ${folder} already exists in the ${input.layer} layer; replace it as a new version, or import under another folder name.`);
  }
  // Replacing: the folder as it is now becomes a version first, so History can bring it back whatever wrote it.
  const before = exists ? snapshotOf(dir, dir) : null;
  const beforeMd = before?.files.find((f) => f.path === "SKILL.md");
  const previousVersionId = before
    ? await recordVersion(ctx.db, ref, ctx.actor, { path: "SKILL.md", action: "save", content: beforeMd?.text ?? null, digest: beforeMd?.text !== undefined ? sha256(beforeMd.text) : null, snapshot: before, message: `before replacing with ${input.fileName}` })
    : undefined;
  fs.mkdirSync(layerRootOf(ctx.dataHome, ref), { recursive: true });
  try {
    writeSkillFolder(dir, files, { force: exists });
  } catch (e) {
    if (e instanceof SkillCopyError) throw badRequest(e.message);
    throw e;
  }
  const text = decodeText(skillMd);
  report.versionId = await recordVersion(ctx.db, ref, ctx.actor, {
    path: "SKILL.md",
    action: "import",
    content: text,
    digest: sha256(skillMd),
    snapshot: snapshotFromFiles(files),
    message: `${exists ? "replaced with" : "imported"} ${input.fileName}`,
  });
  report.imported = true;
  auditSkill(ctx, "skill_imported", ref, {
    digest: sha256(skillMd),
    details: { versionId: report.versionId, fileName: input.fileName, files: files.length, valid, warnings: diagnostics.length, ...(exists ? { replaced: true, previousVersionId } : {}) },
  });
  afterWrite([dir]);
  return report;
}

/** The skill as a .zip: one top folder named like the skill folder, executable bits kept. */
export function exportZip(ctx: SkillsContext, input: SkillRef): { fileName: string; data: Uint8Array } {
  const { ref, dir } = existingSkillDir(ctx, input, "read");
  let files: SkillFile[];
  try {
    files = readSkillFolder(dir);
  } catch (e) {
    if (e instanceof SkillCopyError) throw badRequest(`The skill cannot be exported: ${e.message}.`);
    throw e;
  }
  const top = ref.skill.split("/").pop()!;
  const tree: Zippable = {};
  for (const f of files) {
    // os 3 (Unix) with the mode in the high bits: unzip and our own importer restore the executable bit.
    tree[`${top}/${f.path}`] = [f.data, { os: 3, attrs: ((f.executable ? 0o100755 : 0o100644) << 16) >>> 0 }];
  }
  return { fileName: `${top}.zip`, data: zipSync(tree, { level: 6 }) };
}
