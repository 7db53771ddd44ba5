// The folders a watcher follows for one layer configuration (SkillIndex.watchTargets; the console's one watcher per
// data home follows the union over its users' indexes).
import { layerFolderEscape } from "./confine";
import { isInside, type LayerConfig, layerRoots, pluginsDir } from "./layers";
import { sourcesDir } from "../sources/state";

/**
 * Its layer roots (installed plugins through their parent folder), none that leaves its boundary. A git source's
 * plugin roots are targets of their own: a pin moved by the CLI is a new checkout folder that no parent folder's
 * watch reports, and the watcher's look at its targets is what finds it.
 */
export function watchTargetsOf(config: LayerConfig): string[] {
  const sources = sourcesDir(config.home);
  const roots = layerRoots(config).filter((r) => (r.layer !== "plugin" || isInside(sources, r.dir)) && !layerFolderEscape(r));
  return [...new Set([...roots.map((r) => r.dir), pluginsDir(config)])];
}
