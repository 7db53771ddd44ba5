// What an admin reads before deciding an approval (issue 41 item 3): the waiting version's SKILL.md, the
// definition agents get for that name now (for the waiting definition's owner), and the diff between the two,
// or the whole text when nothing of that name is active. The doctor's findings are added by services/doctor.
import fs from "node:fs";
import { createTwoFilesPatch } from "diff";
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { approvals } from "../../../db/schema";
import type { DataHome } from "../../config";
import { resolve, type LayerName, type SkillEntry } from "../../runtime/registry";
import { effectivePolicy } from "../policy/store";
import { approvalDigestOf, configOrDefault } from "./approvals";
import { displayPath, ownerOf } from "./context";
import { allDefinitions } from "./definitions";
import { GovernanceError } from "./errors";

/** A SKILL.md longer than this is shown cut; the diff gives up on texts further apart than this many line edits. */
const SHOWN_BYTES = 256 * 1024;
const DIFF_EDITS = 2000;

export interface ApprovalReview {
  id: number;
  skill: string;
  layer: LayerName;
  plugin: string | null;
  where: string;
  requestedBy: string | null;
  /** The waiting version's SKILL.md as it is on disk. */
  text: string;
  truncated: boolean;
  /** What agents get for this name now; null when nothing is active (the waiting text is all there is). */
  active: { layer: LayerName; plugin: string | null; where: string } | null;
  /** Unified diff from the active SKILL.md to the waiting one; null when nothing is active or the two are too far apart. */
  diff: string | null;
}

function readShown(file: string): { text: string; truncated: boolean } {
  try {
    const buf = fs.readFileSync(file);
    return { text: buf.subarray(0, SHOWN_BYTES).toString("utf8"), truncated: buf.length > SHOWN_BYTES };
  } catch {
    return { text: "", truncated: false };
  }
}

/** The approval's definition on disk at the approval's version, or NOT_FOUND when it changed or went. */
async function approvalEntry(db: Db, dataHome: DataHome, viewerId: string, id: number): Promise<{ row: typeof approvals.$inferSelect; entry: SkillEntry; all: SkillEntry[] }> {
  const row = (await db.select().from(approvals).where(eq(approvals.id, id)).limit(1))[0];
  if (!row) throw new GovernanceError("NOT_FOUND", `approval #${id} does not exist`);
  const all = await allDefinitions(dataHome, viewerId);
  const entry = all.find(
    (e) => e.layer === row.layer && e.name === row.skill && (e.plugin ?? null) === row.plugin && ownerOf(e, dataHome) === row.ownerId && approvalDigestOf(e) === row.digest,
  );
  if (!entry) throw new GovernanceError("NOT_FOUND", `this version of ${row.skill} is no longer on disk; reload the queue`);
  return { row, entry, all };
}

export async function approvalReview(db: Db, dataHome: DataHome, viewerId: string, id: number): Promise<ApprovalReview & { dir: string }> {
  const { row, entry, all } = await approvalEntry(db, dataHome, viewerId, id);
  // Resolved as the registry does for the definition's owner: the shared layers and only that owner's personal one.
  const same = all.filter((d) => d.name === entry.name && (d.layer !== "personal" || ownerOf(d, dataHome) === row.ownerId));
  const ctx = { ...configOrDefault(dataHome), policy: await effectivePolicy(db, { userId: row.ownerId }) };
  const now = resolve({ definitions: () => same, names: () => [entry.name] }, entry.plugin ? `${entry.name}@${entry.plugin}` : entry.name, ctx).active;
  const waiting = readShown(entry.file);
  const active = now && now.id !== entry.id ? now : null;
  let diff: string | null = null;
  if (active) {
    const before = readShown(active.file).text;
    diff = createTwoFilesPatch(`${active.layer}/SKILL.md`, `${entry.layer}/SKILL.md`, before, waiting.text, "active now", "waiting", { maxEditLength: DIFF_EDITS }) ?? null;
  }
  return {
    id: row.id,
    skill: row.skill,
    layer: entry.layer,
    plugin: row.plugin,
    where: displayPath(entry.dir, dataHome),
    requestedBy: row.requestedBy,
    ...waiting,
    active: active ? { layer: active.layer, plugin: active.plugin ?? null, where: displayPath(active.dir, dataHome) } : null,
    diff,
    dir: entry.dir,
  };
}
