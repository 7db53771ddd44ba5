// The console's view of the skill layers. Each console user has their own personal layer, so there is one
// SkillIndex per user (enterprise, project and plugins are shared folders, read by each). Indexes are built
// once, follow the disk through one registry watcher per data home (shared by every user's index: watching the
// shared layers once per signed-in user cost a watcher, its memory and its rescans twenty times over), and are
// kept for the most recently used users. Several servers on one data home on shared storage see each other's
// writes by rescanning on a timer (OMNIFORGE_INDEX_POLL_SECONDS): a file written on another machine raises no
// notification here. Health says when this server last looked and a digest of what it serves, to compare servers.
import { createHash } from "node:crypto";
import { agentUserSkillDirs, buildInTurns, makeLayerConfig, rebuildInTurns, type SkillIndex, type LayerConfig } from "../../runtime/registry";
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
  /** Per data home: the rescan timer, when this server last looked at the whole disk, and when it last saw a change. */
  polls: Map<string, NodeJS.Timeout>;
  scannedAt: Map<string, number>;
  changedAt: Map<string, number>;
  /** Data homes whose rescan is under way (it runs in turns, and may outlast its period under load). */
  rescanning: Set<string>;
}
const state = processWide<CatalogState>("catalog", () => ({
  indexes: new Map(),
  pending: new Map(),
  refreshListeners: new Set(),
  watchers: new Map(),
  started: new Set(),
  polls: new Map(),
  scannedAt: new Map(),
  changedAt: new Map(),
  rescanning: new Set(),
}));

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
    const every = setting("OMNIFORGE_INDEX_POLL_SECONDS");
    if (every > 0 && !s.polls.has(key)) {
      const timer = setInterval(() => void pollIndexes(dataHome).catch((e: Error) => console.warn(`[omniforge] rescan of the layer folders failed: ${e.message}`)), every * 1000);
      timer.unref();
      s.polls.set(key, timer);
    }
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
    // Built a slice per turn of the event loop (600 skills in one go held health for up to 1.9 s). What the console
    // wrote or the watcher saw meanwhile may lie behind the walk already: it is looked at again before serving.
    const seen: string[] = [];
    const stop = onRefreshAll((paths) => seen.push(...paths));
    let index: SkillIndex;
    try {
      index = await buildInTurns(layerConfigFor(userId, dataHome), donor ? { reuse: donor } : {});
    } finally {
      stop();
    }
    if (seen.length) index.refresh(seen);
    s.indexes.set(key, index);
    s.scannedAt.set(homeKey(dataHome), Date.now());
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
  // The first index reads what changed; the others take its entries where the files are as it read them.
  let donor: SkillIndex | undefined;
  for (const index of s.indexes.values()) {
    index.refresh(paths, donor ? { donor } : {});
    donor ??= index;
  }
  for (const listener of s.refreshListeners) listener(paths);
  for (const key of homesOf(s)) s.changedAt.set(key, Date.now());
}

const homesOf = (s: CatalogState) => new Set([...s.indexes.keys()].map((k) => k.slice(0, k.lastIndexOf("\u0000"))));
const indexesOf = (s: CatalogState, dataHome: DataHome) => [...s.indexes].filter(([k]) => k.startsWith(`${homeKey(dataHome)}\u0000`)).map(([, index]) => index);

/**
 * Rescans the data home's layer folders, as the timer of OMNIFORGE_INDEX_POLL_SECONDS does, so what another server
 * wrote to the shared data home is served from here on; returns the skill folders that changed. The shared layers
 * are walked once, by the most recently used index (warm: only SKILL.md files whose size or time changed are read
 * again: `npm run bench -- registry`'s warm rebuild), a slice per turn of the event loop, and the other indexes take in
 * what it found and walk only their own personal layer: rescanning every index (up to 32, one per recent user) cost
 * that many walks. A rescan still running when the next is due is not started twice.
 */
export async function pollIndexes(dataHome: DataHome): Promise<string[]> {
  const s = state();
  const key = homeKey(dataHome);
  if (s.rescanning.has(key)) return [];
  s.rescanning.add(key);
  try {
    return await rescan(s, dataHome, key);
  } finally {
    s.rescanning.delete(key);
  }
}

async function rescan(s: CatalogState, dataHome: DataHome, key: string): Promise<string[]> {
  const changed = new Set<string>();
  const collect = async (index: SkillIndex, rescanOne: () => unknown) => {
    const stop = index.onChange((c) => {
      for (const e of [...c.added, ...c.changed, ...c.removed]) changed.add(e.dir);
    });
    try {
      await rescanOne();
    } finally {
      stop();
    }
  };
  const [first, ...others] = indexesOf(s, dataHome).reverse();
  if (first) await collect(first, () => rebuildInTurns(first));
  const shared = [...changed];
  for (const index of others) {
    const personal = index.layerRoots().filter((r) => r.layer === "personal").map((r) => r.dir);
    await collect(index, () => index.refresh([...shared, ...personal], { donor: first }));
  }
  s.scannedAt.set(key, Date.now());
  if (changed.size) {
    s.changedAt.set(key, Date.now());
    // Others holding indexes of the same folders (the turn worker) look at what changed.
    for (const listener of s.refreshListeners) listener([...changed]);
  }
  return [...changed];
}

/** How fresh this server's view of a data home is, for /api/health. */
export interface IndexFreshness {
  /** When this server last read the layer folders whole (an index built, or a rescan); null before the first. */
  scannedAt: string | null;
  /** When it last took in a change (its own write, a file notification or a rescan that found one). */
  changedAt: string | null;
  /** The rescan period (OMNIFORGE_INDEX_POLL_SECONDS; 0 when it follows file notifications only). */
  pollSeconds: number;
  /**
   * A digest of the shared layers' definitions as this server has them (layer, plugin, name and SKILL.md digest;
   * personal layers left out): servers serving the same skills show the same digest, a lagging one another.
   */
  digest: string | null;
}

export function indexFreshness(dataHome: DataHome = resolveDataHome()): IndexFreshness {
  const s = state();
  const key = homeKey(dataHome);
  const at = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
  const latest = indexesOf(s, dataHome).at(-1); // the most recently used
  return { scannedAt: at(s.scannedAt.get(key)), changedAt: at(s.changedAt.get(key)), pollSeconds: setting("OMNIFORGE_INDEX_POLL_SECONDS"), digest: latest ? sharedDigest(latest) : null };
}

// Health is asked every few seconds by every probe, and hashing 600 definitions took a few ms of the request thread
// each time: the digest is kept per index and recomputed only when its version moves.
const digests = new WeakMap<SkillIndex, { version: number; digest: string }>();

function sharedDigest(index: SkillIndex): string {
  const kept = digests.get(index);
  if (kept?.version === index.version) return kept.digest;
  const version = index.version;
  const lines = index
    .entries()
    .filter((e) => e.layer !== "personal")
    .map((e) => `${e.layer}\u0000${e.plugin ?? ""}\u0000${e.name}\u0000${e.digest}`)
    .sort();
  const digest = createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 16);
  digests.set(index, { version, digest });
  return digest;
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
  for (const timer of s.polls.values()) clearInterval(timer);
  s.polls.clear();
  s.scannedAt.clear();
  s.changedAt.clear();
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
