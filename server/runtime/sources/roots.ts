// The layer roots that sources give the registry, and the provenance of each (which repository, path and commit):
// the registry reads a pinned checkout like any other layer folder.
import path from "node:path";
import type { LayerRoot } from "../registry/layer-root";
import { readSources, sourcesDir, type SourceRecord } from "./state";

export interface SourceProvenance {
  name: string;
  url: string;
  path: string;
  commit: string;
}

function rootsOf(home: string, r: SourceRecord): { root: LayerRoot; from: SourceProvenance }[] {
  const from = { name: r.name, url: r.url, path: r.path, commit: r.commit };
  return (r.roots ?? []).map((x) => {
    const dir = path.join(sourcesDir(home), r.name, x.dir);
    const plugin = x.plugin ?? (r.layer === "plugin" ? r.name : undefined);
    const root: LayerRoot = plugin ? { layer: "plugin", dir, plugin, installedAt: r.addedAt } : { layer: "enterprise", dir };
    return { root, from };
  });
}

function recordsOr(home: string): SourceRecord[] {
  try {
    return readSources(home);
  } catch {
    // A damaged state file serves no source; `omniforge source list` names the damage.
    return [];
  }
}

/** Every source's layer roots (enterprise ones and plugin ones), in name order. */
export function sourceRoots(home: string): LayerRoot[] {
  return recordsOr(home).flatMap((r) => rootsOf(home, r).map((x) => x.root));
}

/** Layer root folder -> the source it comes from. */
export function sourceProvenance(home: string): Map<string, SourceProvenance> {
  return new Map(recordsOr(home).flatMap((r) => rootsOf(home, r).map((x) => [x.root.dir, x.from] as const)));
}

/**
 * The folder of skill folders one source gives a layer (a marketplace source: the root of plugin `plugin`), or
 * undefined when the source (or that plugin of it) is not recorded.
 */
export function sourceRootDir(home: string, name: string, plugin?: string): string | undefined {
  const rec = recordsOr(home).find((r) => r.name === name);
  if (!rec) return undefined;
  return rootsOf(home, rec).find((x) => (x.root.layer === "plugin" ? x.root.plugin === plugin : plugin === undefined))?.root.dir;
}

/**
 * The source a skill's layer root comes from, found from the root alone (the agent loop has an entry, not the data
 * home): a source root lies in <home>/sources/<name>/<commit>/..., so the home is what precedes that, and the recorded
 * sources of that home decide; any other root has none.
 */
export function provenanceOfRoot(root: string): SourceProvenance | undefined {
  const m = /^(.*)[\\/]sources[\\/][^\\/]+[\\/][0-9a-f]{40,64}(?:[\\/]|$)/.exec(root);
  return m ? sourceProvenance(m[1]!).get(root) : undefined;
}
