import { z } from "zod";
import { IMPORT_ARCHIVE_MAX_BYTES } from "../../../domain/limits";
import { SKILL_STATES } from "../../../domain/vocabulary";
import { PROJECT_SKILL_DIRS } from "../../../runtime/registry/layers";
import { LAYERS } from "../../../domain/vocabulary";

export const ZLayer = z.enum(LAYERS);

export const ZSkillRef = z.object({
  layer: ZLayer,
  skill: z.string().min(1).max(300),
  plugin: z.string().max(128).optional(),
  ownerId: z.string().max(128).optional(),
  base: z.enum(PROJECT_SKILL_DIRS).optional(),
  source: z.string().max(64).optional(),
});

const ZPath = z.string().min(1).max(1024);
const ZText = z.string().max(2 * 1024 * 1024, "Files edited in the browser are limited to 2 MiB.");
const ZDigest = z.string().regex(/^[0-9a-f]{64}$/).nullable();

export const ZListInput = z.object({
  q: z.string().max(200).optional(),
  layers: z.array(ZLayer).optional(),
  statuses: z.array(z.enum(SKILL_STATES)).optional(),
  tag: z.string().max(100).optional(),
  sort: z.enum(["name", "layer", "status", "changed"]).optional(),
  dir: z.enum(["asc", "desc"]).optional(),
  offset: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(500).optional(),
  /** Only definitions whose problem list holds an error (the Overview's figure links here). */
  problems: z.literal("error").optional(),
  /** Administrators: list this user's personal skills instead of their own catalog. */
  owner: z.string().min(1).max(128).optional(),
});

export const ZSearchInput = z.object({ q: z.string().trim().min(1).max(2000), limit: z.number().int().min(1).max(50).optional() });

export const ZRefInput = z.object({ ref: ZSkillRef });
export const ZFileInput = z.object({ ref: ZSkillRef, path: ZPath });
export const ZSaveInput = z.object({ ref: ZSkillRef, path: ZPath, text: ZText, baseDigest: ZDigest, message: z.string().max(500).optional() });
export const ZCheckInput = z.object({ ref: ZSkillRef, text: ZText });
export const ZCreateFileInput = z.object({ ref: ZSkillRef, path: ZPath, kind: z.enum(["file", "folder"]), text: ZText.optional() });
export const ZRenameInput = z.object({ ref: ZSkillRef, from: ZPath, to: ZPath });
export const ZVersionInput = z.object({ id: z.number().int().positive() });
export const ZRestoreInput = z.object({ id: z.number().int().positive(), baseDigest: ZDigest });
export const ZNameCheckInput = z.object({ layer: ZLayer, plugin: z.string().max(128).optional(), name: z.string().max(200) });
export const ZCreateSkillInput = z.object({
  layer: ZLayer,
  plugin: z.string().max(128).optional(),
  name: z.string().min(1).max(64),
  description: z.string().max(1024),
  template: z.string().max(64),
});
export const ZDeleteSkillInput = z.object({ ref: ZSkillRef, message: z.string().max(500).optional() });
// Base64 over tRPC with a cap: the archive checks need the whole file in memory anyway.
export const ZImportInput = z.object({
  layer: ZLayer,
  plugin: z.string().max(128).optional(),
  fileName: z.string().min(1).max(255),
  base64: z.string().max(Math.ceil((IMPORT_ARCHIVE_MAX_BYTES * 4) / 3) + 4, "The archive is larger than 20 MiB."),
  dryRun: z.boolean().optional(),
  folder: z.string().max(128).optional(),
  /** An existing folder of that name is replaced, kept in its history as the version before. */
  replace: z.boolean().optional(),
});
