// A cold index build cut in slices, for a caller on the console's thread: walking and checking 600 skills in one go
// held every other request (health included) for 0.3-1.9 s on the first catalog read after start (issues 36/38).
// The same steps run straight through where nothing may wait (a root that appeared after the scan).
import type { BodyCache } from "./body";
import { type ConfinementError, layerFolderEscape } from "./confine";
import { type LayerConfig, type LayerRoot, layerRoots } from "./layers";
import { entryFor, type EntryOptions, linkRecorder, rootUnits, type RootsScanner, SCAN_MAX_DEPTH, type UnitScan, visibleFound, withWalkListings } from "./scan";
import { type ListedEntry, walkSkillTree } from "../skill/discover";
import { type RebuildStats, sameEntryOptions, SkillIndex } from "./skill-index";
import { runInTurns, runNow } from "../turns";
import type { SkillEntry } from "./types";

/** Skill folders checked (or taken over unchanged from `previous`) per turn of the event loop. */
export const REGISTRY_SLICE = 25;

/**
 * The scans a cold rebuild takes (RootsScanner's result), as steps: each `yield` is a place to give the event loop
 * a turn, after about REGISTRY_SLICE skill folders. `previous`: entries to take over where their SKILL.md is
 * unchanged (another user's index of the same shared layers).
 */
function* scanSteps(roots: LayerRoot[], opts: EntryOptions, previous?: ReadonlyMap<string, SkillEntry>): Generator<void, UnitScan[][]> {
  const perRoot: UnitScan[][] = [];
  let done = 0;
  for (const [r, root] of roots.entries()) {
    // The root's own folder: one listing, and an entry only when the root itself is a skill.
    const { own, units } = rootUnits(root, r, opts, previous);
    const scans = [own];
    for (const unit of units) {
      const listings = new Map<string, readonly ListedEntry[]>();
      const links = new Map<string, ConfinementError>();
      const found: string[] = [];
      walkSkillTree(unit, { maxDepth: SCAN_MAX_DEPTH, listings, onLink: linkRecorder(root.dir, links) }, found);
      const scan: UnitScan = { found: visibleFound(root, found), entries: [], links };
      for (const dir of scan.found) {
        if (done > 0 && done % REGISTRY_SLICE === 0) yield;
        // The walk's listings serve the checks that follow in later turns too (one stat less per file looked up).
        scan.entries.push(withWalkListings(listings, () => entryFor(root, dir, previous?.get(dir), opts)));
        done++;
      }
      scans.push(scan);
    }
    perRoot.push(scans);
  }
  return perRoot;
}

/**
 * SkillIndex.build for a caller on the console's thread: the same index, its folders walked and checked a slice at a
 * time with a turn of the event loop between slices. `reuse`: another user's index of the same shared layers, whose
 * unchanged entries are taken over. A layer root that appeared meanwhile (a plugin installed) is scanned at the end.
 */
export async function buildInTurns(config: LayerConfig, opts: { bodyCache?: BodyCache; entries?: EntryOptions; reuse?: SkillIndex } = {}): Promise<SkillIndex> {
  const entries = opts.entries ?? {};
  const previous = opts.reuse && sameEntryOptions(opts.reuse.entryOptions, entries) ? new Map(opts.reuse.entries().map((e) => [e.id, e])) : undefined;
  const scan = await scannerInTurns(config, entries, previous);
  return SkillIndex.build(config, { bodyCache: opts.bodyCache, entries, previous, scan });
}

/**
 * SkillIndex.rebuild (warm) for a caller on the console's thread: the timer's rescan of a shared data home
 * (OMNIFORGE_INDEX_POLL_SECONDS) walked 600 skill folders in one go every few seconds, holding every request for
 * 24-93 ms each time (the two-server bench's reads' p99). The walk goes a slice per turn; what a refresh took in
 * meanwhile (a save on this server, a file notification) is read again after, so the walk's older look at those
 * folders does not undo it.
 */
export async function rebuildInTurns(index: SkillIndex): Promise<RebuildStats> {
  const heard = new Set<string>();
  const stop = index.onChange((c) => {
    for (const e of [...c.added, ...c.changed, ...c.removed]) heard.add(e.dir);
  });
  let scan: RootsScanner;
  try {
    scan = await scannerInTurns(index.config, index.entryOptions, new Map(index.entries().map((e) => [e.id, e])));
  } finally {
    stop();
  }
  const stats = index.rebuild({ scan });
  if (heard.size) index.refresh(heard);
  return stats;
}

/**
 * The roots' scans, walked now a slice per turn; the scanner a build or rebuild then takes them from. A layer root
 * that appeared meanwhile (a plugin installed) is scanned when asked for, straight through.
 */
async function scannerInTurns(config: LayerConfig, entries: EntryOptions, previous?: ReadonlyMap<string, SkillEntry>): Promise<RootsScanner> {
  // A root is the same root while everything the entries copy from it is (its folder, layer, plugin, install time).
  const key = (r: LayerRoot) => JSON.stringify(r);
  const roots = layerRoots(config).filter((r) => !layerFolderEscape(r));
  const scans = await runInTurns(scanSteps(roots, entries, previous));
  const ready = new Map(roots.map((r, i) => [key(r), scans[i]!]));
  return (now) => {
    const late = now.filter((r) => !ready.has(key(r)));
    const lateScans = late.length ? runNow(scanSteps(late, entries, previous)) : [];
    return now.map((r) => ready.get(key(r)) ?? lateScans[late.indexOf(r)]!);
  };
}
