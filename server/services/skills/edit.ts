// Changing files of an existing skill: save (conditional on the digest the editor loaded), add, rename and delete
// files and folders, restore a file from a version. Every change is a version row and an audit event.
// All file-system calls are synchronous, so the digest check and the write cannot interleave with another request
// of this process; the rename makes the write atomic for other processes.
import fs from "node:fs";
import path from "node:path";
import { createTwoFilesPatch } from "diff";
import { auditSkill, afterWrite, recordPersonalRead, type SkillsContext } from "./context";
import { badRequest, notFound, SkillConflictError } from "./errors";
import { currentDigest, decodeText, listTree, readFileAt, sha256, writeFileAtomic, type FileContent, type TreeNode } from "./files";
import { getVersion, latestVersionOfPath, recordVersion, type Snapshot } from "./history";
import { assertValidNameIn } from "./valid-name";
import { assertRead, assertWrite, confine, newRelPath, normaliseRef, refFromHistory, safeRelPath, skillDirOf, type SkillRef } from "./location";

/**
 * The existing skill folder of a ref the actor may read (or write). Every read of a skill's files starts here, so
 * this is where a read of someone else's personal skill goes on the record (`file`: which one, when one).
 */
export function existingSkillDir(ctx: SkillsContext, input: SkillRef, mode: "read" | "write", file?: string): { ref: SkillRef; dir: string } {
  const ref = normaliseRef(input, ctx.actor);
  if (mode === "write") assertWrite(ctx.actor, ref);
  else assertRead(ctx.actor, ref);
  const dir = skillDirOf(ctx.dataHome, ref);
  let st: fs.Stats;
  try {
    st = fs.statSync(dir);
  } catch {
    throw notFound(`The skill ${ref.skill} does not exist in the ${ref.layer} layer (it may have been deleted or renamed).`);
  }
  if (!st.isDirectory()) throw notFound(`${ref.skill} is not a skill folder.`);
  if (mode === "read") recordPersonalRead(ctx, ref, file === undefined ? {} : { file });
  return { ref, dir };
}

export function skillTree(ctx: SkillsContext, input: SkillRef): TreeNode[] {
  const { dir } = existingSkillDir(ctx, input, "read");
  return listTree(dir);
}

export function readSkillFile(ctx: SkillsContext, input: SkillRef, rel: string): FileContent {
  const { dir } = existingSkillDir(ctx, input, "read", safeRelPath(rel));
  const abs = confine(dir, rel);
  if (!fs.existsSync(abs) || !fs.statSync(abs).isFile()) throw notFound(`${rel} does not exist in this skill.`);
  return readFileAt(abs, path.relative(dir, abs).split(path.sep).join("/"));
}

export interface SaveInput {
  ref: SkillRef;
  path: string;
  text: string;
  /** sha256 of the file as the editor loaded it; null for a new file (which must not exist yet). */
  baseDigest: string | null;
  message?: string;
}

export interface SaveResult {
  path: string;
  digest: string;
  versionId: number;
}

function conflict(rel: string, abs: string, yours: string, theirsDigest: string | null): SkillConflictError {
  let theirs = "";
  if (theirsDigest !== null) {
    const t = decodeText(fs.readFileSync(abs));
    theirs = t ?? "(binary file)";
  }
  const diff = createTwoFilesPatch(rel, rel, theirs, yours, "on disk", "yours");
  return new SkillConflictError(rel, theirs, theirsDigest, yours, diff);
}

/** Writes `text` only if the file is still what the editor loaded (digest); else a SkillConflictError, nothing written. */
export async function saveFile(ctx: SkillsContext, input: SaveInput, action: "save" | "restore" = "save"): Promise<SaveResult> {
  const { ref, dir } = existingSkillDir(ctx, input.ref, "write");
  const abs = confine(dir, input.path);
  const rel = path.relative(dir, abs).split(path.sep).join("/");
  if (fs.existsSync(abs) && !fs.statSync(abs).isFile()) throw badRequest(`${rel} is a folder, not a file.`);
  if (!fs.existsSync(abs)) newRelPath(input.path);
  assertValidNameIn(rel, input.text);
  const now = currentDigest(abs);
  if (now !== input.baseDigest) throw conflict(rel, abs, input.text, now);
  // Check, read and write with no await between them: a second save of the same file waits for none of this
  // one's queries, so it finds the new digest and gets its conflict instead of overwriting.
  const before = now === null ? null : decodeText(fs.readFileSync(abs));
  writeFileAtomic(abs, input.text);
  await keepOnDiskVersion(ctx, ref, rel, before, now);
  const digest = sha256(Buffer.from(input.text, "utf8"));
  const versionId = await recordVersion(ctx.db, ref, ctx.actor, {
    path: rel,
    action: now === null && action === "save" ? "create" : action,
    content: input.text,
    digest,
    message: input.message,
  });
  auditSkill(ctx, action === "restore" ? "skill_restored" : "skill_saved", ref, { digest, details: { path: rel, versionId, action } });
  afterWrite([abs]);
  return { path: rel, digest, versionId };
}

/**
 * Before the console overwrites a file, the text on disk becomes a version if the history does not have it
 * (a seeded skill, a git pull, another editor): so "restore" can always go back to what was there before.
 */
async function keepOnDiskVersion(ctx: SkillsContext, ref: SkillRef, rel: string, text: string | null, digest: string | null): Promise<void> {
  if (digest === null || text === null) return;
  const last = await latestVersionOfPath(ctx.db, ref, rel);
  if (last?.digest === digest) return;
  await recordVersion(ctx.db, ref, { id: "disk", email: "on disk", role: "viewer" }, {
    path: rel,
    action: "save",
    content: text,
    digest,
    message: last ? "changed on disk outside the console" : "on disk before the first console edit",
  });
}

/** A new empty (or given) text file; refused when the path exists. */
export async function createFile(ctx: SkillsContext, ref: SkillRef, rel: string, text = ""): Promise<SaveResult> {
  return saveFile(ctx, { ref, path: rel, text, baseDigest: null, message: `added ${rel}` });
}

export function createFolder(ctx: SkillsContext, input: SkillRef, rel: string): { path: string } {
  const { ref, dir } = existingSkillDir(ctx, input, "write");
  const abs = confine(dir, newRelPath(rel));
  if (fs.existsSync(abs)) throw badRequest(`${rel} already exists.`);
  fs.mkdirSync(abs, { recursive: true });
  const clean = path.relative(dir, abs).split(path.sep).join("/");
  auditSkill(ctx, "skill_saved", ref, { details: { path: clean, action: "create-folder" } });
  return { path: clean };
}

function snapshotOf(dir: string, abs: string): Snapshot {
  const files: Snapshot["files"] = [];
  const add = (fileAbs: string) => {
    const bytes = fs.readFileSync(fileAbs);
    const text = decodeText(bytes);
    const rel = path.relative(dir, fileAbs).split(path.sep).join("/");
    const executable = (fs.statSync(fileAbs).mode & 0o111) !== 0;
    files.push(text !== null ? { path: rel, text, executable } : { path: rel, base64: bytes.toString("base64"), executable });
  };
  const walk = (p: string) => {
    const st = fs.lstatSync(p);
    if (st.isSymbolicLink()) return; // links are not part of a snapshot
    if (st.isDirectory()) for (const n of fs.readdirSync(p).sort()) walk(path.join(p, n));
    else if (st.isFile()) add(p);
  };
  walk(abs);
  return { files };
}

/** Renames (moves) a file or folder inside the skill. SKILL.md itself keeps its name. */
export async function renamePath(ctx: SkillsContext, input: SkillRef, from: string, to: string): Promise<{ path: string }> {
  const { ref, dir } = existingSkillDir(ctx, input, "write");
  const src = confine(dir, from);
  const dst = confine(dir, newRelPath(to));
  if (!fs.existsSync(src)) throw notFound(`${from} does not exist in this skill.`);
  if (fs.existsSync(dst)) throw badRequest(`${to} already exists; choose another name.`);
  if (src === path.join(dir, "SKILL.md")) throw badRequest("SKILL.md must keep its name: agents look for exactly that file.");
  if (dst === src || dst.startsWith(src + path.sep)) throw badRequest("A folder cannot move into itself.");
  fs.mkdirSync(path.dirname(dst), { recursive: true });
  fs.renameSync(src, dst);
  const relTo = path.relative(dir, dst).split(path.sep).join("/");
  const relFrom = path.relative(dir, src).split(path.sep).join("/");
  const st = fs.statSync(dst);
  const text = st.isFile() ? decodeText(fs.readFileSync(dst)) : null;
  const versionId = await recordVersion(ctx.db, ref, ctx.actor, {
    path: relTo,
    action: "rename",
    content: text,
    digest: st.isFile() ? sha256(fs.readFileSync(dst)) : null,
    message: `renamed ${relFrom} to ${relTo}`,
  });
  auditSkill(ctx, "skill_saved", ref, { details: { action: "rename", from: relFrom, to: relTo, versionId } });
  afterWrite([src, dst]);
  return { path: relTo };
}

/** Deletes a file or folder inside the skill (its content is kept in the version row's snapshot). */
export async function deletePath(ctx: SkillsContext, input: SkillRef, rel: string): Promise<{ versionId: number }> {
  const { ref, dir } = existingSkillDir(ctx, input, "write");
  const abs = confine(dir, rel);
  if (!fs.existsSync(abs)) throw notFound(`${rel} does not exist in this skill.`);
  if (abs === path.join(dir, "SKILL.md")) throw badRequest("SKILL.md cannot be deleted on its own; delete the whole skill instead.");
  const clean = path.relative(dir, abs).split(path.sep).join("/");
  const snapshot = snapshotOf(dir, abs);
  fs.rmSync(abs, { recursive: true, force: true });
  const versionId = await recordVersion(ctx.db, ref, ctx.actor, { path: clean, action: "delete-file", snapshot, message: `deleted ${clean}` });
  auditSkill(ctx, "skill_saved", ref, { details: { action: "delete-file", path: clean, versionId } });
  afterWrite([abs]);
  return { versionId };
}

export { snapshotOf };

/**
 * Restores one file from a version: its content becomes a new version, conflict-checked like any save
 * (`baseDigest` is the digest of the file the user is looking at, null when it does not exist now).
 */
export async function restoreVersion(ctx: SkillsContext, versionId: number, baseDigest: string | null): Promise<SaveResult> {
  const row = await getVersion(ctx.db, versionId);
  if (!row) throw notFound(`Version ${versionId} does not exist.`);
  const ref = refFromHistory(row);
  if (row.content === null || !row.path) {
    throw badRequest("This version has no file content to restore (a deleted skill is restored from the deleted skills list).");
  }
  return saveFile(ctx, { ref, path: row.path, text: row.content, baseDigest, message: `restored version ${versionId}` }, "restore");
}

/** A version row with its content, for diffs (the actor must be allowed to read its skill). */
export async function readVersion(ctx: SkillsContext, versionId: number) {
  const row = await getVersion(ctx.db, versionId);
  if (!row) throw notFound(`Version ${versionId} does not exist.`);
  const ref = normaliseRef(refFromHistory(row), ctx.actor);
  assertRead(ctx.actor, ref);
  recordPersonalRead(ctx, ref, { versionId, ...(row.path ? { file: row.path } : {}) });
  return { ...row, ref };
}
