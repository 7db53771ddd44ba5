// The search index of a registry index: built once from its entries, then kept current from the registry's
// change events (which follow the disk), so a skill added, edited or removed outside the console is found
// (or not) without a rebuild. Entries whose SKILL.md digest did not change are not read again.
import type { SkillIndex } from "../registry/skill-index";
import type { SkillEntry } from "../registry/types";
import { analyzeDoc, type AnalyzedDoc } from "./analyze";
import { docFor, readBody } from "./document";
import { SkillSearch } from "./engine";
import { yieldToEventLoop } from "../turns";

/**
 * Each entry's document, read and analysed once for every search that holds it: the indexes of a console's users
 * share the entries of the shared layers (a build reuses another index's, a refresh another's fresh ones).
 */
const analyzed = new WeakMap<SkillEntry, AnalyzedDoc>();

function add(search: SkillSearch, e: SkillEntry): void {
  if (!e.loadable) {
    search.remove(e.id);
    return;
  }
  const stamp = `${e.digest}\u0000${e.name}\u0000${e.description}\u0000${e.tags.join(",")}`;
  if (search.holds(e.id, stamp)) return;
  let doc = analyzed.get(e);
  if (!doc) analyzed.set(e, (doc = analyzeDoc(docFor(e, readBody(e.file)))));
  search.upsertAnalyzed(doc, stamp);
}

/** A search over the given entries (loadable ones), read now. */
export function buildSearch(entries: Iterable<SkillEntry>): SkillSearch {
  const search = new SkillSearch();
  for (const e of entries) add(search, e);
  return search;
}

const following = new WeakMap<SkillIndex, SkillSearch>();
const building = new WeakMap<SkillIndex, Promise<SkillSearch>>();

/** Keeps `search` current with the index's changes from now on. */
const follow = (index: SkillIndex, search: SkillSearch) =>
  index.onChange((change) => {
    for (const e of change.removed) search.remove(e.id);
    for (const e of [...change.added, ...change.changed]) add(search, e);
  });

/** The search that follows this registry index (one per index, built on first use). */
export function searchFor(index: SkillIndex): SkillSearch {
  let search = following.get(index);
  if (!search) {
    search = buildSearch(index.entries());
    follow(index, search);
    following.set(index, search);
  }
  return search;
}

/** Skills read and indexed per turn of the event loop when the search is built ahead (searchReady). */
export const SEARCH_SLICE = 25;

/**
 * searchFor, built ahead in slices of SEARCH_SLICE skills with a turn of the event loop between them, for a caller
 * on the console's thread: reading and indexing 600 skills in one go held every other request for about 0.4 s on
 * the first trigger run after start (issue 35 item 5). Changes that arrive meanwhile are applied as they come; a
 * skill they touched is not read again from the list taken at the start.
 */
export function searchReady(index: SkillIndex): Promise<SkillSearch> {
  const kept = following.get(index);
  if (kept) return Promise.resolve(kept);
  let pending = building.get(index);
  if (!pending) {
    pending = (async () => {
      const search = new SkillSearch();
      const stop = follow(index, search);
      const entries = index.entries();
      for (let i = 0; i < entries.length; i += SEARCH_SLICE) {
        if (i > 0) await yieldToEventLoop();
        // Changed or removed since the list was taken: the change event already did what was needed.
        for (const e of entries.slice(i, i + SEARCH_SLICE)) if (index.get(e.id) === e) add(search, e);
      }
      building.delete(index);
      // Built meanwhile by a caller that could not wait (searchFor): that one is kept, this one let go.
      const won = following.get(index);
      if (won) {
        stop();
        return won;
      }
      following.set(index, search);
      return search;
    })();
    building.set(index, pending);
    pending.catch(() => building.delete(index));
  }
  return pending;
}
