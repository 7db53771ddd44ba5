// Stage 2: a skill's body, loaded on activation. The file is read and hashed every time, so what an agent
// gets is always what is on disk now; the parse is cached by sha256 digest, so a hit costs a read + hash.
import { createHash } from "node:crypto";
import fs from "node:fs";
import { checkSkillDir } from "../skill";
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
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(entry.file);
  } catch (e) {
    throw new BodyLoadError(`cannot read ${entry.file}: ${(e as Error).message}`);
  }
  const digest = createHash("sha256").update(bytes).digest("hex");
  const base = { dir: entry.dir, file: entry.file, digest, changedSinceIndex: digest !== entry.digest };
  const hit = cache.get(digest);
  if (hit) return { ...base, ...hit, fromCache: true };
  const check = checkSkillDir(entry.dir, { rules: "omniforge" });
  if (!check.loadable || check.body === null || !check.properties) {
    const first = check.diagnostics.find((d) => d.severity === "error");
    throw new BodyLoadError(`skill "${entry.name}" does not load: ${first?.message ?? "SKILL.md could not be parsed"}`);
  }
  // The file may have changed between our read and the parse; key the cache by what was parsed.
  const value: CachedBody = { body: check.body, bodyStartLine: check.bodyStartLine, name: check.properties.name };
  cache.set(check.digest, value);
  return { ...base, digest: check.digest, changedSinceIndex: check.digest !== entry.digest, ...value, fromCache: false };
}
