// The registry index: stage-1 metadata of every skill definition in every layer. Built cold from the layer
// roots, rebuilt warm (unchanged SKILL.md files are not parsed again), refreshed for given paths, and kept
// current by a watcher so edits made outside the console (git pull, another editor) show up without a restart.
// One piece by design: the class owns its maps (by id, by name, sorted) and their invalidation, which must change
// together; the scan (scan.ts), the watcher (watch.ts) and the change records (index-change.ts) live apart.
import fs from "node:fs";
import path from "node:path";
import { loadBody, type BodyCache, defaultBodyCache, type LoadedBody } from "./body";
import { insideSkillFolder } from "../skill/discover";
import { isInside, type LayerConfig, layerRank, type LayerRoot, layerRoots, pluginsDir } from "./layers";
import { type ConfinementError, layerFolderEscape, linkEscape } from "./confine";
import { entryFor, type EntryOptions, refusedLinkEntry, refusedRootEntry, type RootsScanner, skillDirsUnder } from "./scan";
import type { SkillEntry } from "./types";
import { watchTargetsOf } from "./watch-targets";
import { type ChangeListener, emptyChange, type IndexChange, isEmpty, isSkillFileName, type RebuildStats, sameOr } from "./index-change";
import type { RegistryWatcher, WatchOptions, WatchState } from "./watch";

export type { ChangeListener, IndexChange, RebuildStats } from "./index-change";

export const sameEntryOptions = (a: EntryOptions, b: EntryOptions) => JSON.stringify(a) === JSON.stringify(b);

export class SkillIndex {
  private byId = new Map<string, SkillEntry>();
  private roots: LayerRoot[] = [];
  private nameIndex: Map<string, SkillEntry[]> | null = null;
  private sorted: SkillEntry[] | null = null;
  private listeners = new Set<ChangeListener>();
  private generation = 0;
  private watcher: RegistryWatcher | null = null;
  readonly bodies: BodyCache;
  readonly entryOptions: EntryOptions;
  /** What the last build or rebuild did (null before the first). */
  lastRebuild: RebuildStats | null = null;
  /** During a refresh: another index over the same folders that took in the same paths just before (refresh's `donor`). */
  private donor: SkillIndex | null = null;

  constructor(
    readonly config: LayerConfig,
    opts: { bodyCache?: BodyCache; entries?: EntryOptions } = {},
  ) {
    this.bodies = opts.bodyCache ?? defaultBodyCache;
    this.entryOptions = opts.entries ?? {};
  }

  /**
   * A new index, built cold. `entries` narrows what each entry holds (a one-shot listing: see EntryOptions).
   * `reuse`: another index over some of the same folders (another console user's: the shared layers are the
   * same); its entries whose SKILL.md is unchanged are taken as they are instead of being read and parsed again.
   * `previous`: entries made earlier with the same entry options (a listing's cache, listing-cache.ts), reused
   * the same way.
   */
  static build(
    config: LayerConfig,
    opts: {
      bodyCache?: BodyCache;
      entries?: EntryOptions;
      reuse?: SkillIndex;
      previous?: Map<string, SkillEntry>;
      /** Walks and checks the roots (the CLI's scan with a helper thread, scan-helper.ts, given when nothing is reused; build-in-turns.ts). */
      scan?: RootsScanner;
    } = {},
  ): SkillIndex {
    const index = new SkillIndex(config, opts);
    const reusable = opts.previous ?? (opts.reuse && sameEntryOptions(opts.reuse.entryOptions, index.entryOptions) ? opts.reuse.byId : undefined);
    index.rebuild({ cold: true, previous: reusable, scan: opts.scan });
    return index;
  }

  /** Rescans every layer root. Warm by default: entries whose SKILL.md mtime and size are unchanged are reused. */
  rebuild(opts: { cold?: boolean; previous?: Map<string, SkillEntry>; scan?: RootsScanner } = {}): RebuildStats {
    const previous = opts.previous ?? (opts.cold ? new Map<string, SkillEntry>() : this.byId);
    const next = new Map<string, SkillEntry>();
    let parsed = 0;
    let reused = 0;
    this.roots = layerRoots(this.config);
    // A layer folder that leaves its project or data home (`.codex/skills -> /`) is listed as refused, never walked.
    const refused = this.roots.map((r) => layerFolderEscape(r));
    const scans = opts.scan?.(
      this.roots.filter((_, r) => !refused[r]),
      this.entryOptions,
    );
    let scanned = 0;
    for (const [r, root] of this.roots.entries()) {
      const why = refused[r];
      if (why) {
        next.set(root.dir, sameOr(previous.get(root.dir), refusedRootEntry(root, why)));
        continue;
      }
      const rootScans = scans?.[scanned++];
      const links = new Map<string, ConfinementError>();
      // Scanned already (on two threads): the same folders, entries and links as the walk below would give.
      const made = new Map<string, SkillEntry | null>();
      for (const scan of rootScans ?? []) {
        scan.found.forEach((dir, i) => made.set(dir, scan.entries[i]!));
        for (const [link, why] of scan.links) links.set(link, why);
      }
      for (const dir of scans ? [...made.keys()].sort() : skillDirsUnder(root.dir, root.dir, links)) {
        if (next.has(dir)) continue;
        const prev = previous.get(dir);
        const entry = scans ? (made.get(dir) ?? null) : entryFor(root, dir, prev, this.entryOptions);
        if (!entry) continue;
        if (prev && entry.digest === prev.digest && entry.mtimeMs === prev.mtimeMs) reused++;
        else parsed++;
        next.set(dir, entry);
      }
      for (const [link, why] of links) if (!next.has(link)) next.set(link, sameOr(previous.get(link), refusedLinkEntry(root, link, why)));
    }
    const change = emptyChange();
    if (!opts.cold || this.byId.size) {
      for (const [id, e] of this.byId) if (!next.has(id)) change.removed.push(e);
      for (const [id, e] of next) {
        const prev = this.byId.get(id);
        if (!prev) change.added.push(e);
        else if (prev !== e) change.changed.push(e);
      }
    }
    this.byId = next;
    this.invalidate();
    if (!isEmpty(change) && this.listeners.size) this.emit(change);
    this.lastRebuild = { entries: next.size, parsed, reused, removed: change.removed.length };
    return this.lastRebuild;
  }

  /**
   * Re-reads what the given paths (files or folders, existing or deleted) affect. Cheap for single edits:
   * only the touched skill folders are looked at. Returns what changed (and tells the listeners). `donor`: an index
   * with the same entry options that refreshed the same paths just before: its entries are taken where the SKILL.md
   * is still as it read it, so one save is read and checked once for all of a console's users, not once each.
   */
  refresh(paths: Iterable<string>, opts: { donor?: SkillIndex } = {}): IndexChange {
    const change = emptyChange();
    const list = [...paths].map((p) => path.resolve(p));
    this.donor = opts.donor && opts.donor !== this && sameEntryOptions(opts.donor.entryOptions, this.entryOptions) ? opts.donor : null;
    try {
      if (list.some((p) => !this.rootOf(p) || isInside(pluginsDir(this.config), p))) this.syncRoots(change);
      for (const p of list) {
        const root = this.rootOf(p);
        if (!root) continue;
        const rel = path.relative(root.dir, p);
        if (rel.split(path.sep).some((seg) => seg.startsWith("."))) continue; // staging/trash/hidden folders
        this.refreshPath(root, p, change);
      }
    } finally {
      this.donor = null;
    }
    if (!isEmpty(change)) {
      this.invalidate();
      this.emit(change);
    }
    return change;
  }

  /** Grows every time the entries may have changed (a rebuild or a refresh that found something): a cache key. */
  get version(): number {
    return this.generation;
  }

  /** Every definition, in precedence order (layer, then root order, then folder path). */
  entries(): SkillEntry[] {
    if (!this.sorted) {
      const rootOrder = new Map(this.roots.map((r, i) => [r.dir, i]));
      this.sorted = [...this.byId.values()].sort(
        (a, b) =>
          layerRank(a.layer) - layerRank(b.layer) ||
          (rootOrder.get(a.root) ?? 0) - (rootOrder.get(b.root) ?? 0) ||
          (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0),
      );
    }
    return this.sorted;
  }

  /** Definitions of one name across all layers, in precedence order of the folders (not yet resolved). */
  definitions(name: string): SkillEntry[] {
    if (!this.nameIndex) {
      this.nameIndex = new Map();
      for (const e of this.entries()) {
        const list = this.nameIndex.get(e.name);
        if (list) list.push(e);
        else this.nameIndex.set(e.name, [e]);
      }
    }
    return this.nameIndex.get(name) ?? [];
  }

  names(): string[] {
    this.definitions("");
    return [...this.nameIndex!.keys()].sort();
  }

  get(id: string): SkillEntry | undefined {
    return this.byId.get(path.resolve(id));
  }

  get size(): number {
    return this.byId.size;
  }

  /** The layer roots of the last (re)build, in precedence order. */
  layerRoots(): LayerRoot[] {
    return this.roots;
  }

  /** Stage 2: the body of a definition, read now and cached by digest. */
  loadBody(entry: SkillEntry): LoadedBody {
    return loadBody(entry, this.bodies);
  }

  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts following the layer folders. Resolves once the watcher is ready. Roots created later are picked up. */
  async watch(opts: WatchOptions = {}): Promise<void> {
    if (this.watcher) return;
    // Loaded here, not at import: a one-shot listing (the CLI) never watches and never pays for chokidar.
    const { RegistryWatcher } = await import("./watch");
    if (this.watcher) return;
    this.watcher = new RegistryWatcher(
      () => this.watchTargets(),
      (paths) => this.refresh(paths),
      opts,
    );
    await this.watcher.start();
  }

  /** What the watcher does (null when not watching): notifications or polling, and roots too big to watch. */
  watchState(): WatchState | null {
    return this.watcher?.state() ?? null;
  }

  get watching(): boolean {
    return this.watcher !== null;
  }

  async close(): Promise<void> {
    const w = this.watcher;
    this.watcher = null;
    if (w) await w.close();
    this.listeners.clear();
  }

  /** The folders a watcher follows for this index (watch-targets.ts). */
  watchTargets(): string[] {
    return watchTargetsOf(this.config);
  }

  private invalidate(): void {
    this.generation++;
    this.sorted = null;
    this.nameIndex = null;
  }

  private emit(change: IndexChange): void {
    for (const l of this.listeners) {
      try {
        l(change);
      } catch {
        // A listener's failure must not stop the index from following the disk.
      }
    }
  }

  /** The deepest known root containing p. */
  private rootOf(p: string): LayerRoot | undefined {
    let best: LayerRoot | undefined;
    for (const r of this.roots) if (isInside(r.dir, p) && (!best || r.dir.length > best.dir.length)) best = r;
    return best;
  }

  /** Plugins installed/removed or their manifests changed: bring the plugin roots up to date. */
  private syncRoots(change: IndexChange): void {
    const fresh = layerRoots(this.config);
    const byDir = new Map(fresh.map((r) => [r.dir, r]));
    for (const e of [...this.byId.values()]) {
      const r = byDir.get(e.root);
      if (!r) {
        this.byId.delete(e.id);
        change.removed.push(e);
      } else if (r.installedAt !== e.installedAt) {
        const updated = { ...e, installedAt: r.installedAt };
        this.byId.set(e.id, updated);
        change.changed.push(updated);
      }
    }
    const known = new Set(this.roots.map((r) => r.dir));
    this.roots = fresh;
    for (const r of fresh) if (!known.has(r.dir)) this.refreshPath(r, r.dir, change);
  }

  private refreshPath(root: LayerRoot, p: string, change: IndexChange): void {
    const why = layerFolderEscape(root);
    if (why) return this.refuseRoot(root, why, change);
    // Refused until now (the link was replaced by a folder): nothing below it is known yet, so walk all of it.
    if (p !== root.dir && this.byId.get(root.dir)) return this.refreshPath(root, root.dir, change);
    const lst = fs.lstatSync(p, { throwIfNoEntry: false });
    if (lst?.isSymbolicLink() && p !== root.dir) {
      // Never walk through a link (a link to / would walk /proc): a linked folder is listed as refused when it
      // leaves the layer, and a linked SKILL.md is judged by its skill.
      if (isSkillFileName(p)) return this.skillFileChanged(root, p, change);
      for (const e of [...this.byId.values()]) if (e.id !== p && isInside(p, e.id)) this.remove(e, change);
      const prev = this.byId.get(p);
      if (insideSkillFolder(root.dir, path.dirname(p))) {
        // One of a skill's files (confined when read), as the walk of a fresh build sees it: never a definition.
        if (prev) this.remove(prev, change);
        return this.recheckOwner(root, path.dirname(p), change);
      }
      const why = linkEscape(root.dir, p);
      if (!why) {
        if (prev) this.remove(prev, change);
        return;
      }
      const entry = sameOr(prev, refusedLinkEntry(root, p, why));
      if (entry === prev) return;
      this.byId.set(p, entry);
      (prev ? change.changed : change.added).push(entry);
      return;
    }
    let st: fs.Stats | null = null;
    try {
      st = fs.statSync(p);
    } catch {
      st = null;
    }
    if (!st) {
      if (isSkillFileName(p)) return this.skillFileChanged(root, p, change);
      for (const e of [...this.byId.values()]) if (isInside(p, e.id)) this.remove(e, change);
      this.recheckOwner(root, path.dirname(p), change);
    } else if (st.isDirectory()) {
      const links = new Map<string, ConfinementError>();
      const found = new Set(skillDirsUnder(root.dir, p, links));
      for (const e of [...this.byId.values()]) if (isInside(p, e.id) && !found.has(e.id) && !links.has(e.id)) this.remove(e, change);
      for (const d of found) this.upsert(root, d, change);
      for (const [link, why] of links) {
        const prev = this.byId.get(link);
        const entry = sameOr(prev, refusedLinkEntry(root, link, why));
        if (entry === prev) continue;
        this.byId.set(link, entry);
        (prev ? change.changed : change.added).push(entry);
      }
      this.recheckOwner(root, path.dirname(p), change);
    } else if (isSkillFileName(p)) {
      this.skillFileChanged(root, p, change);
    } else {
      this.recheckOwner(root, path.dirname(p), change);
    }
  }

  /**
   * A SKILL.md came, changed or went. When that makes or unmakes a skill folder, the links in it change kind (a
   * skill's files, or lone links between skills), so the folder is walked again as a fresh build would walk it.
   */
  private skillFileChanged(root: LayerRoot, file: string, change: IndexChange): void {
    const dir = path.dirname(file);
    const was = this.byId.has(dir);
    this.upsert(root, dir, change);
    if (was !== this.byId.has(dir) && fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) this.refreshPath(root, dir, change);
    else if (!this.byId.has(dir)) this.recheckOwner(root, path.dirname(dir), change);
  }

  /** The layer folder left its boundary: what was found in it goes, and the folder is listed as refused. */
  private refuseRoot(root: LayerRoot, why: ConfinementError, change: IndexChange): void {
    for (const e of [...this.byId.values()]) if (e.id !== root.dir && isInside(root.dir, e.id)) this.remove(e, change);
    const prev = this.byId.get(root.dir);
    const entry = sameOr(prev, refusedRootEntry(root, why));
    if (entry === prev) return;
    this.byId.set(root.dir, entry);
    (prev ? change.changed : change.added).push(entry);
  }

  private upsert(root: LayerRoot, dir: string, change: IndexChange): void {
    const prev = this.byId.get(dir);
    const offered = this.donor?.get(dir);
    const entry = entryFor(root, dir, offered?.root === root.dir ? offered : prev, this.entryOptions);
    if (!entry) {
      if (prev) this.remove(prev, change);
      return;
    }
    if (entry === prev) return;
    this.byId.set(dir, entry);
    (prev ? change.changed : change.added).push(entry);
  }

  private remove(e: SkillEntry, change: IndexChange): void {
    if (this.byId.delete(e.id)) change.removed.push(e);
  }

  /** A file inside a skill folder changed (e.g. scripts/ appeared): refresh the skill that owns it. */
  private recheckOwner(root: LayerRoot, from: string, change: IndexChange): void {
    for (let d = from; isInside(root.dir, d); d = path.dirname(d)) {
      const owner = this.byId.get(d);
      if (owner) {
        this.upsert(root, d, change);
        return;
      }
      if (d === root.dir) return;
    }
  }
}
