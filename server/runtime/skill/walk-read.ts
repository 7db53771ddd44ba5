// The file-system half of a skill walk as plain data: a unit of the walk (discover.ts) walked, its folder listings
// kept and every skill folder's SKILL.md read, so a helper thread can do it while the command's thread checks what
// it already has (walk-helper.ts). Only system calls and copying here: the checks stay where they always ran.
import path from "node:path";
import { readPlainSkillFile, type SkillFileRead } from "./check";
import { type ListedEntry, type SkillTreeUnit, walkSkillTree } from "./discover";

export interface WalkReadOptions {
  maxDepth: number;
  /** Keep the listings of folders inside skill folders too (for the body's file lookups), not only the skill folders'. */
  nested: boolean;
}

/** One unit walked and read. Structured-clone data: it crosses threads. */
export interface UnitRead {
  /** Skill folders found, in walk order. */
  found: string[];
  /** The listings the walk kept, each as its folder, the entry names and one letter per entry: f, d, l or o. */
  listings: [dir: string, names: string[], kinds: string][];
  /** readPlainSkillFile of each found folder's SKILL.md (null where the careful path must look). */
  files: (SkillFileRead | null)[];
  /** The links the walk reported (findSkillDirs' onLink), in order. */
  links: [link: string, kind: "folder" | "skill-file"][];
}

export function readUnit(opts: WalkReadOptions, unit: SkillTreeUnit): UnitRead {
  const kept = new Map<string, readonly ListedEntry[]>();
  const links: UnitRead["links"] = [];
  const found: string[] = [];
  walkSkillTree(unit, { maxDepth: opts.maxDepth, listings: kept, onLink: (link, kind) => links.push([link, kind]) }, found);
  const listings: UnitRead["listings"] = [];
  const skills = opts.nested ? null : new Set(found);
  for (const [dir, entries] of kept) {
    if (skills && !skills.has(dir)) continue;
    let kinds = "";
    for (const e of entries) kinds += e.isFile() ? "f" : e.isDirectory() ? "d" : e.isSymbolicLink() ? "l" : "o";
    listings.push([dir, entries.map((e) => e.name), kinds]);
  }
  return { found, listings, files: found.map((dir) => readPlainSkillFile(path.join(dir, "SKILL.md"), true)), links };
}

/** A listing of a UnitRead as entries again. */
export function listedEntries(names: string[], kinds: string): ListedEntry[] {
  return names.map((name, i) => new Listed(name, kinds.charCodeAt(i)));
}

const F = 0x66;
const D = 0x64;
const L = 0x6c;

class Listed implements ListedEntry {
  constructor(
    readonly name: string,
    private readonly kind: number,
  ) {}
  isFile() {
    return this.kind === F;
  }
  isDirectory() {
    return this.kind === D;
  }
  isSymbolicLink() {
    return this.kind === L;
  }
}
