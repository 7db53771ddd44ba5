// The console's view of the skill layers. Each console user has their own personal layer, so there is one
// SkillIndex per user (enterprise, project and plugins are shared folders, read by each). Indexes are built
// once, follow the disk through the registry's watcher, and are kept for the most recently used users.
import { makeLayerConfig, SkillIndex, type LayerConfig } from "../../runtime/registry";
import { resolveDataHome, type DataHome } from "../../config";
import { processWide } from "../../process-wide";
import { setting } from "../../../env";

const MAX_INDEXES = 32;

interface CatalogState {
  indexes: Map<string, SkillIndex>;
  pending: Map<string, Promise<SkillIndex>>;
  /** Others holding indexes of the same folders (the playground's turn worker), told of the console's writes. */
  refreshListeners: Set<(paths: string[]) => void>;
}
const state = processWide<CatalogState>("catalog", () => ({ indexes: new Map(), pending: new Map(), refreshListeners: new Set() }));

/** Layer folders as seen by a console user (their personal layer is <home>/users/<id>/skills). */
export function layerConfigFor(userId: string | null, dh: DataHome = resolveDataHome()): LayerConfig {
  return makeLayerConfig({ home: dh.home, projectRoot: dh.projectRoot, userId: userId ?? undefined });
}

/** The index for one user, built and watching. `null` means no personal layer (e.g. the what-if "nobody"). */
export async function indexFor(userId: string | null, dh: DataHome = resolveDataHome()): Promise<SkillIndex> {
  const key = `${dh.home}\u0000${dh.projectRoot}\u0000${userId ?? ""}`;
  const s = state();
  const hit = s.indexes.get(key);
  if (hit) {
    // Refresh the LRU position.
    s.indexes.delete(key);
    s.indexes.set(key, hit);
    return hit;
  }
  const inFlight = s.pending.get(key);
  if (inFlight) return inFlight;
  const p = (async () => {
    const index = SkillIndex.build(layerConfigFor(userId, dh));
    if (setting("OMNIFORGE_WATCH")) {
      await index.watch({ onError: (e) => console.warn(`[omniforge] watcher: ${e.message}`) });
    }
    s.indexes.set(key, index);
    while (s.indexes.size > MAX_INDEXES) {
      const [oldKey, old] = s.indexes.entries().next().value as [string, SkillIndex];
      s.indexes.delete(oldKey);
      void old.close();
    }
    return index;
  })();
  s.pending.set(key, p);
  try {
    return await p;
  } finally {
    s.pending.delete(key);
  }
}

/**
 * After the console itself writes skill files, refresh every cached index at once instead of waiting for the
 * watcher's debounce, so the next read shows the change.
 */
export function refreshAll(paths: string[]): void {
  const s = state();
  for (const index of s.indexes.values()) index.refresh(paths);
  for (const listener of s.refreshListeners) listener(paths);
}

/** Calls `listener` with the paths of every refreshAll; returns the unsubscribe. */
export function onRefreshAll(listener: (paths: string[]) => void): () => void {
  const s = state();
  s.refreshListeners.add(listener);
  return () => s.refreshListeners.delete(listener);
}

export async function closeAllIndexes(): Promise<void> {
  const s = state();
  const all = [...s.indexes.values()];
  s.indexes.clear();
  await Promise.all(all.map((i) => i.close()));
}

/** What the layer watchers do, for /api/health: how many indexes follow the disk, by polling or not, and how many layer folders are too big to watch (counts only: health is public). */
export function watchSummary(): { indexes: number; polling: number; tooBig: number } {
  let polling = 0;
  const tooBig = new Set<string>();
  const indexes = [...state().indexes.values()];
  for (const index of indexes) {
    const w = index.watchState();
    if (w?.mode === "polling") polling++;
    for (const r of w?.tooBig ?? []) tooBig.add(r);
  }
  return { indexes: indexes.length, polling, tooBig: tooBig.size };
}
