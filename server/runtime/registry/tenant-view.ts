// What a caller may know of an index when tenants are a boundary (issue #40): a skill scoped to tenants none of
// which is the caller's is left out of every entry list, name list and lookup, as if its folder did not exist, so
// no door built on the index (list, search, resolution, the doctor's overlap) can name it, not even as "out of
// scope". One view per index and tenant set, kept while the index lives, so the resolution cache keyed by the
// index object (services/catalog/resolution.ts) still hits.
import type { SkillIndex } from "./skill-index";
import type { SkillEntry } from "./types";

/** True when an entry may be shown to a caller who sees `tenants` ("all": the global admin). */
export function tenantVisible(entry: Pick<SkillEntry, "scope">, tenants: readonly string[] | "all"): boolean {
  const scoped = entry.scope?.tenants;
  if (tenants === "all" || !scoped || scoped.length === 0) return true;
  return scoped.some((t) => tenants.includes(t));
}

const views = new WeakMap<SkillIndex, Map<string, SkillIndex>>();

/** The index as a caller seeing `tenants` knows it; the index itself when they see all. */
export function tenantView(index: SkillIndex, tenants: readonly string[] | "all"): SkillIndex {
  if (tenants === "all") return index;
  const key = JSON.stringify([...tenants].sort());
  let byKey = views.get(index);
  if (!byKey) views.set(index, (byKey = new Map()));
  const hit = byKey.get(key);
  if (hit) return hit;
  let cache: { version: number; entries: SkillEntry[]; byName: Map<string, SkillEntry[]> } | null = null;
  const current = () => {
    if (!cache || cache.version !== index.version) {
      const entries = index.entries().filter((e) => tenantVisible(e, tenants));
      const byName = new Map<string, SkillEntry[]>();
      for (const e of entries) byName.set(e.name, [...(byName.get(e.name) ?? []), e]);
      cache = { version: index.version, entries, byName };
    }
    return cache;
  };
  // Everything else (version, bodies, watching, layer roots) is the index's own.
  const narrowed: Partial<Record<keyof SkillIndex, unknown>> = {
    entries: () => current().entries,
    definitions: (name: string) => current().byName.get(name) ?? [],
    names: () => [...current().byName.keys()].sort(),
    get: (id: string) => {
      const e = index.get(id);
      return e && tenantVisible(e, tenants) ? e : undefined;
    },
  };
  const view = new Proxy(index, {
    get(target, prop, receiver) {
      if (prop === "size") return current().entries.length;
      if (typeof prop === "string" && prop in narrowed) return narrowed[prop as keyof SkillIndex];
      const v = Reflect.get(target, prop, receiver === view ? target : receiver);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  byKey.set(key, view);
  return view;
}
