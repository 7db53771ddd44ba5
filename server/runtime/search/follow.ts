// The search index of a registry index: built once from its entries, then kept current from the registry's
// change events (which follow the disk), so a skill added, edited or removed outside the console is found
// (or not) without a rebuild. Entries whose SKILL.md digest did not change are not read again.
import type { SkillIndex } from "../registry/skill-index";
import type { SkillEntry } from "../registry/types";
import { docFor, readBody } from "./document";
import { SkillSearch } from "./engine";

function add(search: SkillSearch, e: SkillEntry): void {
  if (!e.loadable) {
    search.remove(e.id);
    return;
  }
  const stamp = `${e.digest}\u0000${e.name}\u0000${e.description}\u0000${e.tags.join(",")}`;
  search.upsert(docFor(e, readBody(e.file)), stamp);
}

/** A search over the given entries (loadable ones), read now. */
export function buildSearch(entries: Iterable<SkillEntry>): SkillSearch {
  const search = new SkillSearch();
  for (const e of entries) add(search, e);
  return search;
}

const following = new WeakMap<SkillIndex, SkillSearch>();

/** The search that follows this registry index (one per index, built on first use). */
export function searchFor(index: SkillIndex): SkillSearch {
  let search = following.get(index);
  if (!search) {
    const s = buildSearch(index.entries());
    index.onChange((change) => {
      for (const e of change.removed) s.remove(e.id);
      for (const e of [...change.added, ...change.changed]) add(s, e);
    });
    following.set(index, s);
    search = s;
  }
  return search;
}
