// Stage 2: a skill's body, loaded on activation. The file is read and hashed every time, so what an agent
// gets is always what is on disk now; the parse is cached by sha256 digest, so a hit costs a read + hash.
import { createHash } from "node:crypto";
import fs from "node:fs";
import { checkSkillDir } from "../skill/check";
import { MAX_SKILL_FILE_BYTES } from "../skill/parse";
import type { SkillEntry } from "./types";

export interface LoadedBody {
  name: string;
  dir: string;
  file: string;
  digest: string;
  body: string;
  bodyStartLine: number;
  /** True when SKILL.md changed after the entry was indexed (the body is the current one). */
  changedSinceIndex: boolean;
  fromCache: boolean;
}

interface CachedBody {
  body: string;
  bodyStartLine: number;
  name: string;
}

/** Bounded LRU keyed by digest: identical files in several layers share one cached body. */
export class BodyCache {
  private map = new Map<string, CachedBody>();
  private chars = 0;
  constructor(private readonly maxChars = 32 * 1024 * 1024) {}

  get(digest: string): CachedBody | undefined {
    const hit = this.map.get(digest);
    if (hit) {
      this.map.delete(digest);
      this.map.set(digest, hit);
    }
    return hit;
  }

  set(digest: string, value: CachedBody): void {
    if (this.map.has(digest)) return;
    this.map.set(digest, value);
    this.chars += value.body.length;
    for (const [key, old] of this.map) {
      if (this.chars <= this.maxChars) break;
      this.map.delete(key);
      this.chars -= old.body.length;
    }
  }

  get size(): number {
    return this.map.size;
  }
}

export const defaultBodyCache = new BodyCache();

export class BodyLoadError extends Error {}

export function loadBody(entry: SkillEntry, cache: BodyCache = defaultBodyCache): LoadedBody {
  let bytes: Buffer | null;
  try {
    // Only a plain, reasonably sized file takes the fast path; links, FIFOs and oversized files go through the
    // skill checker, which confines links to the folder, never blocks on a FIFO and reports the size.
    const st = fs.lstatSync(entry.file);
    bytes = st.isFile() && st.size <= MAX_SKILL_FILE_BYTES ? fs.readFileSync(entry.file) : null;
  } catch (e) {
    throw new BodyLoadError(`cannot read ${entry.file}: ${(e as Error).message}`);
  }
  if (bytes) {
    const digest = createHash("sha256").update(bytes).digest("hex");
    const hit = cache.get(digest);
    if (hit) return { dir: entry.dir, file: entry.file, digest, changedSinceIndex: digest !== entry.digest, ...hit, fromCache: true };
  }
  const check = checkSkillDir(entry.dir, { rules: "omniforge" });
  if (!check.loadable || check.body === null || !check.properties) {
    const first = check.diagnostics.find((d) => d.severity === "error");
    throw new BodyLoadError(`skill "${entry.name}" does not load: ${first?.message ?? "SKILL.md could not be parsed"}`);
  }
  // The file may have changed between our read and the parse; key the cache by what was parsed.
  const value: CachedBody = { body: check.body, bodyStartLine: check.bodyStartLine, name: check.properties.name };
  cache.set(check.digest, value);
  return { dir: entry.dir, file: entry.file, digest: check.digest, changedSinceIndex: check.digest !== entry.digest, ...value, fromCache: false };
}
