// Every definition an administrator governs: the shared layers (enterprise, project, plugins) and the personal
// layer of every console user, not only the admin's own.
import fs from "node:fs";
import path from "node:path";
import type { DataHome } from "../../config";
import { isSafeSegment, type SkillEntry } from "../../runtime/registry";
import { entryFor, skillDirsUnder } from "../../runtime/registry/scan";
import { indexFor } from "../catalog/catalog";

function personalEntries(dataHome: DataHome, userId: string): SkillEntry[] {
  const root = { layer: "personal" as const, dir: path.join(dataHome.home, "users", userId, "skills") };
  const out: SkillEntry[] = [];
  for (const dir of skillDirsUnder(root.dir)) {
    const e = entryFor(root, dir);
    if (e) out.push(e);
  }
  return out;
}

/** Shared layers from the viewer's (cached, watching) index, plus a fresh scan of the other users' personal layers. */
export async function allDefinitions(dataHome: DataHome, viewerId: string): Promise<SkillEntry[]> {
  const index = await indexFor(viewerId, dataHome);
  const out = [...index.entries()];
  let users: string[] = [];
  try {
    users = fs
      .readdirSync(path.join(dataHome.home, "users"), { withFileTypes: true })
      .filter((d) => d.isDirectory() && isSafeSegment(d.name) && d.name !== viewerId)
      .map((d) => d.name);
  } catch {
    // No users folder yet: nobody has personal skills.
  }
  for (const u of users) out.push(...personalEntries(dataHome, u));
  return out;
}
