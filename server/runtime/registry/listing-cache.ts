// What `omniforge skill list` remembers between runs, the way git's index remembers files: the entries of the last
// listing over the same folders, kept in the user's cache folder. The next listing still walks every layer and
// stats every SKILL.md; a file whose size, mtime and ctime are all unchanged is not read or parsed again (the
// index's warm rebuild, scan.ts). ctime moves on every change to a file, also one that puts mtime back (tar, rsync
// -t, cp -p), and entries changed within FILE_CLOCK_SETTLE_MS of being saved are not kept: the clock that stamps
// files is coarse, so an edit right after the listing could keep all three. Anything unexpected (another build of the CLI, other
// options, a damaged or foreign file) means no cache, never a wrong listing.
// Beside it, the last answer (the command's whole output): usable only when the listing reused every remembered
// entry, in order, and nothing else the answer depends on changed (the caller hashes those inputs; see
// skill-list.ts). Each write of the entries draws a new token, and an answer names the token of the entries it was
// made from, so an answer can never outlive the entries it shows.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import type { LayerConfig } from "./layers";
import type { EntryOptions } from "./scan";
import type { SkillEntry } from "./types";
import { FILE_CLOCK_SETTLE_MS } from "../../domain/vocabulary";

const FORMAT = 2;

interface Stored {
  format: number;
  /** Drawn at each write: an answer made from these entries names it. */
  token: string;
  /** The CLI build and everything the entries depend on besides the files (see listingCache). */
  key: string;
  entries: SkillEntry[];
}

export interface ListingCache {
  /** The remembered entries by folder, or undefined when there is no usable cache. */
  read(): Map<string, SkillEntry> | undefined;
  /** Remembers `entries` (written atomically; a failure is ignored: the cache is an optimisation). */
  write(entries: SkillEntry[], now?: number): void;
  /**
   * The answer last kept for the entries `read` gave and these `inputs` (everything else it depends on), or
   * undefined. Only for a listing that reused every entry read, in order, and wrote none.
   */
  readAnswer(inputs: string): Uint8Array | undefined;
  /** Keeps `text` as the answer for the entries `read` gave and `inputs` (same condition as readAnswer). */
  writeAnswer(inputs: string, text: string): void;
  readonly file: string;
}

/**
 * Where the cache lives: OMNIFORGE_CACHE_DIR, else $XDG_CACHE_HOME/omniforge, else ~/.cache/omniforge; "off" (or
 * 0, false, no) turns it off. Null when off. Read from the command's environment as given, like OMNIFORGE_HOME in
 * layers.ts: env.ts's setting() would load zod, a tenth of a listing's time (the setting is declared there).
 */
export function cacheDirFrom(env: Record<string, string | undefined>): string | null {
  const set = env.OMNIFORGE_CACHE_DIR?.trim();
  if (set && /^(off|0|false|no)$/i.test(set)) return null;
  if (set) return path.resolve(set);
  const xdg = env.XDG_CACHE_HOME?.trim();
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(env.HOME || os.homedir(), ".cache"), "omniforge");
}

/** The listing cache of `build` in the environment's cache folder; null when the environment turns it off. */
export function listingCacheFrom(env: Record<string, string | undefined>, build: string, config: LayerConfig, entries: EntryOptions): ListingCache | null {
  const dir = cacheDirFrom(env);
  return dir ? listingCache(dir, build, config, entries) : null;
}

/**
 * The cache of one listing: the layer folders and entry options name its file (each catalog and each kind of
 * listing has one), and `build` names the code that made the entries (the CLI bundle's content-hashed entry file):
 * a new build never reads an old build's entries, and its first listing replaces them.
 */
export function listingCache(cacheDir: string, build: string, config: LayerConfig, entries: EntryOptions): ListingCache {
  // One file per catalog and kind of listing: a new build of the CLI replaces it instead of adding one beside it.
  const where = JSON.stringify({ config, entries });
  const key = JSON.stringify({ build, where });
  const file = path.join(cacheDir, `listing-${crypto.createHash("sha256").update(where).digest("hex").slice(0, 24)}.v8`);
  const answerFile = file.replace(/\.v8$/, ".answer");
  // The token of the entries read, once read() gave some: no answer is read or kept without them.
  let token: string | undefined;
  const answerHeader = (inputs: string) => `${crypto.createHash("sha256").update(`${token}\n${inputs}`).digest("hex")}\n`;
  return {
    file,
    read() {
      token = undefined;
      let stored: Stored;
      try {
        const bytes = ownFile(file);
        if (!bytes) return undefined;
        stored = v8.deserialize(bytes) as Stored;
      } catch {
        return undefined; // damaged
      }
      if (!stored || stored.format !== FORMAT || stored.key !== key || !Array.isArray(stored.entries) || typeof stored.token !== "string") return undefined;
      token = stored.token;
      return new Map(stored.entries.map((e) => [e.id, e]));
    },
    write(list, now = Date.now()) {
      const kept = list.filter((e) => e.ctimeMs !== undefined && Math.max(e.mtimeMs, e.ctimeMs) < now - FILE_CLOCK_SETTLE_MS);
      // A new token whether or not the write lands: an answer kept from here on would not match the file's entries.
      token = undefined;
      writeAtomically(cacheDir, file, v8.serialize({ format: FORMAT, key, token: crypto.randomBytes(16).toString("hex"), entries: kept } satisfies Stored));
    },
    readAnswer(inputs) {
      if (token === undefined) return undefined;
      const bytes = ownFile(answerFile);
      if (!bytes) return undefined;
      const header = answerHeader(inputs);
      if (bytes.length < header.length || bytes.toString("latin1", 0, header.length) !== header) return undefined;
      return bytes.subarray(header.length);
    },
    writeAnswer(inputs, text) {
      if (token !== undefined) writeAtomically(cacheDir, answerFile, answerHeader(inputs) + text);
    },
  };
}

/** The bytes of `file` when it is a regular file of this user that nobody else can change; undefined otherwise. */
function ownFile(file: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    // Non-blocking: a named pipe put in the cache's place would otherwise hold the open until a writer came.
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    // Only a file this user wrote and nobody else can change: a listing must not take another person's word.
    const st = fs.fstatSync(fd);
    if (!st.isFile() || (typeof process.getuid === "function" && st.uid !== process.getuid()) || (st.mode & 0o022) !== 0) return undefined;
    return fs.readFileSync(fd);
  } catch {
    return undefined; // none yet or unreadable
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Temp file and rename, 0600 in a 0700 folder; a failure is ignored (the cache is an optimisation). */
function writeAtomically(cacheDir: string, file: string, data: string | Uint8Array): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(tmp, data, { mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // the folder is not there or not ours: nothing was written
    }
  }
}
