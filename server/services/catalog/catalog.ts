// The console's view of the skill layers. Each console user has their own personal layer, so there is one
// SkillIndex per user (enterprise, project and plugins are shared folders, read by each). Indexes are built
// once, follow the disk through one registry watcher per data home (shared by every user's index: watching the
// shared layers once per signed-in user cost a watcher, its memory and its rescans twenty times over), and are
// kept for the most recently used users.
import { agentUserSkillDirs, makeLayerConfig, SkillIndex, type LayerConfig } from "../../runtime/registry";
import type { RegistryWatcher } from "../../runtime/registry/watch";
import { resolveDataHome, type DataHome } from "../../config";
import { processWide } from "../../process-wide";
import { processEnv, setting, type EnvSource } from "../../../env";

const MAX_INDEXES = 32;

interface CatalogState {
  indexes: Map<string, SkillIndex>;
  pending: Map<string, Promise<SkillIndex>>;
  /** Others holding indexes of the same folders (the playground's turn worker), told of every refresh. */
  refreshListeners: Set<(paths: string[]) => void>;
  /** One watcher per data home, following the layer roots of all its indexes. */
  watchers: Map<string, Promise<RegistryWatcher>>;
  /** The watchers that have started, for /api/health (read without waiting). */
  started: Set<RegistryWatcher>;
}
const state = processWide<CatalogState>("catalog", () => ({ indexes: new Map(), pending: new Map(), refreshListeners: new Set(), watchers: new Map(), started: new Set() }));

const homeKey = (dataHome: DataHome) => `${dataHome.home}\u0000${dataHome.projectRoot}`;

/** Starts the data home's shared watcher, or makes it look at the targets again (a new user's personal layer). */
async function follow(dataHome: DataHome): Promise<void> {
  const s = state();
  const key = homeKey(dataHome);
  const existing = s.watchers.get(key);
  if (existing) {
    (await existing).addNewTargets();
    return;
  }
  const started = (async () => {
    const { RegistryWatcher } = await import("../../runtime/registry/watch");
    const mine = () => [...s.indexes].filter(([k]) => k.startsWith(`${key}\u0000`)).map(([, index]) => index);
    const w = new RegistryWatcher(
      () => [...new Set(mine().flatMap((index) => index.watchTargets()))],
      (paths) => refreshAll(paths),
      { onError: (e) => console.warn(`[omniforge] watcher: ${e.message}`) },
    );
    await w.start();
    s.started.add(w);
    return w;
  })();
  s.watchers.set(key, started);
  started.catch(() => s.watchers.delete(key));
  await started;
}

/** Layer folders as seen by a console user (their personal layer is <home>/users/<id>/skills). */
export function layerConfigFor(userId: string | null, dataHome: DataHome = resolveDataHome(), env: EnvSource = processEnv()): LayerConfig {
  // A single-user install points the console at the person's own agent folders (~/.claude/skills and the rest,
  // read from the console's HOME), so their personal layer is the one their agents already use.
  const agentUserDirs = userId !== null && setting("OMNIFORGE_PERSONAL_AGENT_FOLDERS", env) ? agentUserSkillDirs(env) : undefined;
  return makeLayerConfig({ home: dataHome.home, projectRoot: dataHome.projectRoot, userId: userId ?? undefined, agentUserDirs });
}

/** The index for one user, built and watching. `null` means no personal layer (e.g. the what-if "nobody"). */
export async function indexFor(userId: string | null, dataHome: DataHome = resolveDataHome()): Promise<SkillIndex> {
  const key = `${homeKey(dataHome)}\u0000${userId ?? ""}`;
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
    // Another user's index of the same data home shares the enterprise, project and plugin layers: its unchanged
    // entries are reused, so a new user's first page costs a walk and stats, not parsing every skill again.
    const donor = [...s.indexes].find(([k]) => k.startsWith(`${homeKey(dataHome)}\u0000`))?.[1];
    const index = SkillIndex.build(layerConfigFor(userId, dataHome), donor ? { reuse: donor } : {});
    s.indexes.set(key, index);
    if (setting("OMNIFORGE_WATCH")) await follow(dataHome);
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
  const watchers = [...s.watchers.values()];
  s.watchers.clear();
  s.started.clear();
  await Promise.all([...all.map((i) => i.close()), ...watchers.map(async (w) => (await w.catch(() => null))?.close())]);
}

/** What the layer watchers do, for /api/health: how many indexes follow the disk, by polling or not, and how many layer folders are too big to watch (counts only: health is public). */
export function watchSummary(): { indexes: number; polling: number; tooBig: number } {
  let polling = 0;
  const tooBig = new Set<string>();
  const s = state();
  for (const w of s.started) {
    const st = w.state();
    if (st.mode === "polling") polling++;
    for (const r of st.tooBig) tooBig.add(r);
  }
  return { indexes: s.indexes.size, polling, tooBig: tooBig.size };
}
