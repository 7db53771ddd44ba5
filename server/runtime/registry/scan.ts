// Turns skill folders of one layer root into index entries (stage-1 metadata). Lenient: a broken SKILL.md
// becomes an entry with status "invalid" and its diagnostics, never an exception that stops discovery.
import fs from "node:fs";
import path from "node:path";
// From the modules, not the skill runtime's index: that re-exports the frontmatter editor, which loads the YAML
// package at import, and `omniforge skill list` comes through here.
import { checkSkillDir, checkSkillDirWithStat, type SkillFileRead, type SkillFileStat } from "../skill/check";
import { findSkillDirs, insideSkillFolder, type ListedEntry, type SkillTreeUnit, skillTreeUnits } from "../skill/discover";
import type { Diagnostic, SkillCheck } from "../skill/types";
import { listedEntries, type UnitRead } from "../skill/walk-read";
import { assertInsideLayer, ConfinementError, linkEscape } from "./confine";
import { sameOr } from "./index-change";
import type { LayerRoot } from "./layers";
import { approvalDigestOf, type ScriptsState, scriptsState } from "./scripts-digest";
import { isScriptFolder, SCRIPT_FOLDERS } from "../../domain/skill-protocol";
import type { SkillEntry } from "./types";
import { validityOf } from "./validity";

/** Deep enough for nested skill collections (e.g. a skill with sub-skills two levels down), bounded for safety. */
export const SCAN_MAX_DEPTH = 6;

/**
 * Folder listings of the latest walks (skill folders and folders inside them), so the entryFor calls that follow a
 * walk (a rebuild's loop) look files up without a stat each. A skill folder's listing is used once, by the
 * cold entryFor of that folder, and all of them are dropped when the current synchronous job ends: a listing
 * never outlives the walk-then-check it was taken for, and a folder not listed goes to the file system.
 */
let walkListings: Map<string, readonly ListedEntry[]> | null = null;

function listingsForWalk(): Map<string, readonly ListedEntry[]> {
  if (!walkListings) {
    walkListings = new Map();
    queueMicrotask(() => {
      walkListings = null;
    });
  }
  return walkListings;
}

/**
 * Runs `fn` with `listings` as the latest walk's: a walk whose checks go on in later turns of the event loop
 * (build-in-turns.ts) keeps its own map, since the shared one is dropped when the synchronous job ends.
 */
export function withWalkListings<T>(listings: Map<string, readonly ListedEntry[]>, fn: () => T): T {
  const before = walkListings;
  walkListings = listings;
  try {
    return fn();
  } finally {
    walkListings = before;
  }
}

/**
 * Skill folders under a root, without hidden folders (staging/trash folders of installs and deploys). `links`, when
 * given, receives the linked folders met between skills whose target leaves the layer (see confine.ts): they are
 * never walked, and the index lists each as an invalid entry that says why.
 */
export function skillDirsUnder(root: string, dir: string = root, links?: Map<string, ConfinementError>): string[] {
  if (!exists(dir)) return [];
  let found: string[];
  try {
    // A folder below a skill (the watcher's refresh of references/): its links are the skill's files, as in a whole walk.
    const inSkill = dir !== root && insideSkillFolder(root, path.dirname(dir));
    found = findSkillDirs(dir, { maxDepth: SCAN_MAX_DEPTH, listings: listingsForWalk(), onLink: links ? linkRecorder(root, links) : undefined, inSkill });
  } catch {
    return [];
  }
  return found.filter((d) => !hasHiddenSegment(relativeTo(root, d)));
}

/** findSkillDirs' onLink for a layer root: records the linked folders (not hidden) whose target leaves the layer. */
export function linkRecorder(root: string, links: Map<string, ConfinementError>) {
  return (link: string, kind: "folder" | "skill-file") => {
    if (kind !== "folder" || hasHiddenSegment(relativeTo(root, link))) return;
    const escape = linkEscape(root, link);
    if (escape) links.set(link, escape);
  };
}

/** A unit of a layer root's walk (scan-helper.ts): `root` is the root's place in the index's list of roots. */
export interface RootUnit extends SkillTreeUnit {
  root: number;
}

/** What skillDirsUnder and entryFor give for the part of a root's walk that one unit (or the root's own folder) covers. */
export interface UnitScan {
  /** Skill folders found, hidden ones left out (as skillDirsUnder), in walk order. */
  found: string[];
  /** entryFor of each folder in `found` (null where it found none). */
  entries: (SkillEntry | null)[];
  /** Linked folders leaving the layer, and why (as skillDirsUnder's `links`). */
  links: Map<string, ConfinementError>;
}

/**
 * A layer root's walk cut in units (discover.ts's skillTreeUnits), with the root folder's own part scanned: this
 * scan plus the units' (scanRead of what readUnit walked and read, on either thread) give what skillDirsUnder and
 * entryFor give for the root.
 */
export function rootUnits(root: LayerRoot, rootIndex: number, opts: EntryOptions, previous?: ReadonlyMap<string, SkillEntry>): { own: UnitScan; units: RootUnit[] } {
  const links = new Map<string, ConfinementError>();
  let cut: ReturnType<typeof skillTreeUnits> = { found: [], units: [] };
  if (exists(root.dir)) {
    try {
      cut = skillTreeUnits(root.dir, { maxDepth: SCAN_MAX_DEPTH, listings: listingsForWalk(), onLink: linkRecorder(root.dir, links) });
    } catch {
      // unreadable: nothing found, as skillDirsUnder
    }
  }
  return { own: scanned(root, cut.found, links, opts, undefined, previous), units: cut.units.map((u) => ({ ...u, root: rootIndex })) };
}

/** The entries of one unit of a layer root from what readUnit (walk-read.ts) walked and read, on either thread. */
export function scanRead(root: LayerRoot, read: UnitRead, opts: EntryOptions): UnitScan {
  const listings = listingsForWalk();
  for (const [dir, names, kinds] of read.listings) listings.set(dir, listedEntries(names, kinds));
  const links = new Map<string, ConfinementError>();
  const record = linkRecorder(root.dir, links);
  for (const [link, kind] of read.links) record(link, kind);
  const files = new Map(read.found.map((dir, i) => [dir, read.files[i] ?? null]));
  return scanned(root, read.found, links, opts, files);
}

function scanned(root: LayerRoot, found: string[], links: Map<string, ConfinementError>, opts: EntryOptions, files?: Map<string, SkillFileRead | null>, previous?: ReadonlyMap<string, SkillEntry>): UnitScan {
  const visible = visibleFound(root, found);
  return {
    found: visible,
    entries: visible.map((d) => entryFor(root, d, previous?.get(d), opts, files?.get(d))),
    links,
  };
}

/** Scans the layer roots of a cold build in one go: per root, the scans whose finds and entries make it up. */
export type RootsScanner = (roots: LayerRoot[], opts: EntryOptions) => UnitScan[][];

/** The index entry of a linked folder that leaves its layer: listed (so nobody wonders where it went), never loaded. */
export function refusedLinkEntry(root: LayerRoot, link: string, why: ConfinementError): SkillEntry {
  const entry: SkillEntry = {
    id: link,
    name: path.basename(link),
    description: "",
    layer: root.layer,
    root: root.dir,
    dir: link,
    file: path.join(/*turbopackIgnore: true*/ link, "SKILL.md"),
    digest: "",
    tags: [],
    priority: 0,
    hasScripts: false,
    approvalDigest: "",
    loadable: false,
    valid: false,
    status: "invalid",
    diagnostics: [{ severity: "error", code: why.code, message: why.message, line: 1, column: 1, endLine: 1, endColumn: 1 }],
    // The link's own time: when it was made is what "last change" means for it.
    mtimeMs: fs.lstatSync(/*turbopackIgnore: true*/ link, { throwIfNoEntry: false })?.mtimeMs ?? 0,
    size: 0,
  };
  if (root.plugin) entry.plugin = root.plugin;
  return entry;
}

/** The entry of a layer folder that is no layer folder (confine.ts layerFolderEscape), named as its project names it. */
export function refusedRootEntry(root: LayerRoot, why: ConfinementError): SkillEntry {
  const name = root.boundary ? path.relative(root.boundary.dir, root.dir) : path.basename(root.dir);
  return { ...refusedLinkEntry(root, root.dir, why), name: name || path.basename(root.dir) };
}

/** A SKILL.md that is a link must stay inside its own skill folder (else it would show another file's text). */
function skillFileEscape(dir: string, listing: readonly ListedEntry[] | undefined): ConfinementError | null {
  for (const name of ["SKILL.md", "skill.md"]) {
    // Joined only when the file system must be asked or a link judged: a listed plain SKILL.md needs no path.
    let file: string | null = null;
    const fileOf = () => (file ??= path.join(/*turbopackIgnore: true*/ dir, name));
    let isLink: boolean;
    if (listing) {
      const d = listing.find((e) => e.name === name);
      if (!d) continue;
      isLink = d.isSymbolicLink();
    } else {
      const st = lstatOrNull(fileOf());
      if (!st) continue;
      isLink = st.isSymbolicLink();
    }
    if (!isLink) return null;
    try {
      assertInsideLayer(dir, fileOf(), name);
      return null;
    } catch (e) {
      if (!(e instanceof ConfinementError)) throw e;
      const where = e.target ? "to a file outside its skill folder" : "that points nowhere";
      return new ConfinementError(`${name} is a symbolic link ${where}; it is not read.`, e.code, e.target);
    }
  }
  return null;
}

/** path.relative(root, d), as a slice when d is below root as written (what the walk returns). */
function relativeTo(root: string, d: string): string {
  if (d.length > root.length && d.startsWith(root) && d[root.length] === path.sep && !root.endsWith(path.sep)) return d.slice(root.length + 1);
  return path.relative(root, d);
}

const hasHiddenSegment = (rel: string) => rel.startsWith(".") || rel.includes(path.sep + ".");

/** The folders of a walk below a layer root that are not hidden (staging and trash folders are), in walk order. */
export const visibleFound = (root: LayerRoot, found: string[]) => found.filter((d) => !hasHiddenSegment(relativeTo(root.dir, d)));

/**
 * The skill file's mtime, size and ctime; "skill.md" counts too (it loads, with a warning from the skill checker).
 * `listing`: the folder's entries as the walk just read them, which say which name to stat.
 */
export function statSkillFile(dir: string, listing?: readonly ListedEntry[]): SkillFileStat | null {
  for (const name of ["SKILL.md", "skill.md"]) {
    if (listing && !listing.some((d) => d.name === name)) continue;
    const file = path.join(/*turbopackIgnore: true*/ dir, name);
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(/*turbopackIgnore: true*/ file, { throwIfNoEntry: false });
    } catch {
      continue; // EACCES on the folder: the check says so (folder.unreadable)
    }
    if (st) return { mtimeMs: st.mtimeMs, size: st.size, ctimeMs: st.ctimeMs };
  }
  return null;
}

/** lstat, with "cannot tell" (a folder that denies access) as null like "not there": the check reports which. */
function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(/*turbopackIgnore: true*/ p, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/**
 * A folder the walk found but cannot read (it may hold a skill): listed as an invalid entry saying so, stamped with
 * the folder's own times, so it neither vanishes from the listing nor stops it.
 */
function unreadableStat(dir: string, check: SkillCheck): SkillFileStat | null {
  if (!check.diagnostics.some((d) => d.code === "folder.unreadable")) return null;
  const st = lstatOrNull(dir);
  return st ? { mtimeMs: st.mtimeMs, size: 0, ctimeMs: st.ctimeMs } : null;
}

function exists(p: string): boolean {
  return fs.statSync(p, { throwIfNoEntry: false }) !== undefined;
}

/**
 * A copy of a string that does not keep its source alive. V8 represents substrings as slices of the parent,
 * so a description cut out of SKILL.md would pin the whole file (body included) in the index's memory.
 */
export function detach(s: string): string {
  return s.length < 13 ? s : (" " + s).slice(1);
}

const detachDiagnostic = (d: Diagnostic): Diagnostic => ({ ...d, code: detach(d.code), message: detach(d.message) });

/**
 * How much an entry holds. The console's index checks everything (the editor and the skill pages show body
 * diagnostics, approvals need the scripts digest); a one-shot listing (`omniforge skill list`) shows what the
 * frontmatter says, so it skips the body checks and file lookups, and hashes scripts/ only when the policy asks
 * for approvals (without it, `approvalDigest` is "" and nothing compares it).
 */
export interface EntryOptions {
  checks?: "full" | "frontmatter";
  scriptDigests?: boolean;
}

/**
 * The entry for one skill folder. `previous` is reused when its SKILL.md mtime and size are unchanged
 * (warm rebuild); only the cheap facts (scripts/ stamp and digest, plugin install time) are refreshed. `read`: its
 * SKILL.md as a walk's helper thread read it (checkSkillDir's `read`).
 */
export function entryFor(root: LayerRoot, dir: string, previous?: SkillEntry, opts: EntryOptions = {}, read?: SkillFileRead | null): SkillEntry | null {
  const frontmatterOnly = opts.checks === "frontmatter";
  const checkOpts = frontmatterOnly ? ({ checkBody: false, checkFiles: false } as const) : {};
  let st: SkillFileStat | null;
  let check: SkillCheck;
  let scripts: ScriptsState | typeof UNHASHED | null;
  // The walk just before listed this folder: its listing serves this one check, whichever path runs.
  const listings = walkListings?.has(dir) ? walkListings : undefined;
  const linked = skillFileEscape(dir, listings?.get(dir));
  if (linked) {
    listings?.delete(dir);
    const st = statSkillFile(dir) ?? { mtimeMs: 0, size: 0, ctimeMs: 0 };
    const made = { ...refusedLinkEntry(root, dir, linked), name: path.basename(dir), file: path.join(/*turbopackIgnore: true*/ dir, "SKILL.md"), mtimeMs: st.mtimeMs, size: st.size };
    // The same refusal as before is the same entry: a new object at every rescan was a change the index reported
    // to its listeners (the search, the turn worker, the catalog's ETag) every few seconds.
    return previous && sameOr(previous, made) === previous && previous.mtimeMs === made.mtimeMs && previous.size === made.size && previous.root === made.root ? previous : made;
  }
  // A previous entry is reused only while its SKILL.md can be stat'ed; else the folder is checked as new (it may
  // have become unreadable, and the check says so).
  const own = previous ? listings?.get(dir) : undefined;
  const previousSt = previous ? statSkillFile(dir, own) : null;
  if (previous && previousSt) {
    listings?.delete(dir);
    st = previousSt;
    scripts = scriptsOf(dir, own, opts, previous.scripts);
    const unchanged = previous.mtimeMs === st.mtimeMs && previous.size === st.size && (previous.ctimeMs === undefined || previous.ctimeMs === st.ctimeMs);
    if (unchanged && previous.root === root.dir) {
      if (sameScripts(previous, scripts) && previous.installedAt === root.installedAt) return previous;
      return withScripts({ ...previous, installedAt: root.installedAt }, scripts);
    }
    check = checkSkillDir(dir, { rules: "omniforge", ...checkOpts });
  } else {
    // Cold: the check's own fstat of the SKILL.md it read stands in for statSkillFile (one stat less per skill).
    const checked = checkSkillDirWithStat(dir, { rules: "omniforge", listings, read, ...checkOpts });
    const own = listings?.get(dir);
    listings?.delete(dir);
    st = checked.stat ?? statSkillFile(dir);
    check = checked.check;
    if (st) scripts = scriptsOf(dir, own, opts);
    else {
      st = unreadableStat(dir, check);
      if (!st) return null;
      scripts = null; // nothing in it can be looked at
    }
  }
  const props = check.properties;
  const entry: SkillEntry = {
    id: dir,
    name: detach(props?.name || path.basename(dir)),
    description: detach(props?.description ?? ""),
    layer: root.layer,
    root: root.dir,
    dir,
    file: check.file ?? path.join(dir, "SKILL.md"),
    digest: check.digest,
    tags: (props?.tags ?? []).map(detach),
    priority: typeof props?.priority === "number" && Number.isFinite(props.priority) ? props.priority : 0,
    hasScripts: false,
    approvalDigest: "",
    loadable: check.loadable,
    valid: check.valid,
    status: validityOf(check.loadable, check.diagnostics),
    diagnostics: check.diagnostics.map(detachDiagnostic),
    mtimeMs: st.mtimeMs,
    size: st.size,
    ctimeMs: st.ctimeMs,
  };
  if (root.plugin) entry.plugin = root.plugin;
  if (root.installedAt) entry.installedAt = root.installedAt;
  if (props?.scope) {
    const sc = props.scope;
    entry.scope = {};
    if (sc.agents) entry.scope.agents = sc.agents.map(detach);
    if (sc.tenants) entry.scope.tenants = sc.tenants.map(detach);
    if (sc.environments) entry.scope.environments = sc.environments.map(detach);
  }
  if (props?.allowedTools) entry.allowedTools = props.allowedTools.map(detach);
  if (props?.context) entry.context = props.context;
  if (props?.disabled) entry.disabledInFile = true;
  return withScripts(entry, scripts);
}

/** A scripts/ folder that is there but was not hashed (a listing without approvals). */
const UNHASHED = "unhashed" as const;

/** The scripts/ state of a skill folder; `own` is its listing from the walk just before, when there was one. */
function scriptsOf(dir: string, own: readonly ListedEntry[] | undefined, opts: EntryOptions, previous?: ScriptsState): ScriptsState | typeof UNHASHED | null {
  // No entry that could be a script folder in the listing: scriptsState's stats would find nothing either.
  if (own && !own.some((d) => isScriptFolder(d.name))) return null;
  const folders = own ? SCRIPT_FOLDERS.filter((f) => own.some((d) => d.name === f)) : SCRIPT_FOLDERS;
  if (opts.scriptDigests === false) {
    // Whether a folder is there (the listing says, or a stat does), without hashing a file in it.
    const there = own
      ? own.some((d) => SCRIPT_FOLDERS.includes(d.name) && d.isDirectory())
      : folders.some((f) => fs.statSync(path.join(dir, f), { throwIfNoEntry: false })?.isDirectory());
    return there ? UNHASHED : null;
  }
  return scriptsState(dir, previous, folders);
}

/** Whether `scripts` is what `previous` already says (scriptsState returns the previous state itself when unchanged). */
function sameScripts(previous: SkillEntry, scripts: ScriptsState | typeof UNHASHED | null): boolean {
  if (scripts === UNHASHED) return previous.hasScripts && previous.scripts === undefined;
  return previous.hasScripts === (scripts !== null) && (scripts ?? undefined) === previous.scripts;
}

function withScripts(entry: SkillEntry, scripts: ScriptsState | typeof UNHASHED | null): SkillEntry {
  entry.hasScripts = scripts !== null;
  if (scripts === UNHASHED) {
    // Nothing compares it without approvals; "" never equals a recorded approval.
    entry.approvalDigest = "";
    delete entry.scripts;
    return entry;
  }
  entry.approvalDigest = approvalDigestOf(entry.digest, scripts);
  if (scripts) entry.scripts = scripts;
  else delete entry.scripts;
  return entry;
}
