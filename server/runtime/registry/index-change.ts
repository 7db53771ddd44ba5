// What a rebuild or a refresh of the index changed, and the small rules that decide whether an entry changed.
import path from "node:path";
import type { SkillEntry } from "./types";

export interface IndexChange {
  added: SkillEntry[];
  changed: SkillEntry[];
  removed: SkillEntry[];
}

export interface RebuildStats {
  entries: number;
  parsed: number;
  reused: number;
  removed: number;
}

export type ChangeListener = (change: IndexChange) => void;

export const emptyChange = (): IndexChange => ({ added: [], changed: [], removed: [] });
export const isEmpty = (c: IndexChange) => !c.added.length && !c.changed.length && !c.removed.length;

/** The previous entry when a refused link's (or layer folder's) entry says the same (so a rebuild reports no change). */
export function sameOr(prev: SkillEntry | undefined, next: SkillEntry): SkillEntry {
  return prev && prev.status === "invalid" && prev.diagnostics[0]?.message === next.diagnostics[0]?.message && prev.dir === next.dir ? prev : next;
}

export const isSkillFileName = (p: string) => {
  const b = path.basename(p);
  return b === "SKILL.md" || b === "skill.md";
};
