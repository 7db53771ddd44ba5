// What the data home remembers of its git sources: <home>/sources/sources.json (name, shown URL, ref, sub-path,
// layer, pinned and previous commit), one checkout folder per kept commit, a bare cache repository per source, and
// a URL that carries a password in <home>/secrets/sources/<name>.url (0600), never in the state file.
import fs from "node:fs";
import path from "node:path";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../../domain/limits";

export type SourceLayer = "enterprise" | "plugin";

export interface SourceRecord {
  name: string;
  /** The URL as it may be shown (redactUrl). */
  url: string;
  ref: string;
  /** Sub-folder of the repository that holds the skill folders ("" for its top). */
  path: string;
  layer: SourceLayer;
  /** The pinned commit the layer serves. */
  commit: string;
  /** The commit before the last add/update/rollback, for rollback. */
  previous?: string;
  addedAt: string;
  updatedAt: string;
  /**
   * The folders of skill folders the pinned commit gives, relative to <home>/sources/<name>/: "<commit>/<path>" for a
   * plain repository, one per plugin for a Claude Code marketplace.
   */
  roots: SourceRoot[];
}

export interface SourceRoot {
  dir: string;
  /** The plugin the skills appear under (plugin layer): a marketplace plugin's name, else the source's. */
  plugin?: string;
}

interface StateFile {
  sources: SourceRecord[];
}

export const sourcesDir = (home: string): string => path.join(home, "sources");
export const stateFile = (home: string): string => path.join(sourcesDir(home), "sources.json");
export const cacheDir = (home: string, name: string): string => path.join(sourcesDir(home), name, "cache.git");
export const checkoutDir = (home: string, name: string, commit: string): string => path.join(sourcesDir(home), name, commit);
const secretFile = (home: string, name: string): string => path.join(home, "secrets", "sources", `${name}.url`);

/** The recorded sources, by name order; [] when none were added. A damaged file is an error, not an empty list. */
export function readSources(home: string): SourceRecord[] {
  let text: string;
  try {
    text = fs.readFileSync(stateFile(home), "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
  const parsed = JSON.parse(text) as Partial<StateFile>;
  if (!Array.isArray(parsed.sources)) throw new Error(`${stateFile(home)} holds no sources list`);
  return parsed.sources;
}

/** Replaces the state file atomically (temp file + rename), so a reader never sees half of it. */
export function writeSources(home: string, sources: SourceRecord[]): void {
  fs.mkdirSync(home, { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.mkdirSync(sourcesDir(home), { recursive: true, mode: PRIVATE_DIR_MODE });
  const file = stateFile(home);
  const tmp = `${file}.${process.pid}.tmp`;
  const sorted = [...sources].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  fs.writeFileSync(tmp, JSON.stringify({ sources: sorted }, null, 2) + "\n", { mode: PRIVATE_FILE_MODE });
  fs.renameSync(tmp, file);
}

/** Keeps a URL with a password where only the data home's owner reads it; removes it for `null`. */
export function writeSecretUrl(home: string, name: string, url: string | null): void {
  const file = secretFile(home, name);
  if (url === null) return fs.rmSync(file, { force: true });
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.writeFileSync(file, url, { mode: PRIVATE_FILE_MODE });
  fs.chmodSync(file, PRIVATE_FILE_MODE);
}

/** The URL git is handed for a source: the secret one when there is one, else the recorded one. */
export function fetchUrlOf(home: string, record: SourceRecord): string {
  try {
    return fs.readFileSync(secretFile(home, record.name), "utf8");
  } catch {
    return record.url;
  }
}
