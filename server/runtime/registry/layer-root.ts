// What a layer folder is, for the registry and for whatever gives it folders (sources), in a module of its own so
// that neither imports the other for it.
import type { LayerName } from "../../domain/vocabulary";

/**
 * The folder a layer folder's real path must stay inside (issue #35): the project root for the project's own agent
 * folders (`.claude/skills -> /` is no project folder), the data home for the others, never the real path of the
 * layer folder itself, which a link chooses. `exclude`: a place inside `dir` that is still out of bounds (a data
 * home kept inside the project, whose secrets a project folder must not reach).
 */
export interface LayerBoundary {
  dir: string;
  kind: "project" | "data home";
  exclude?: string;
}

export interface LayerRoot {
  layer: LayerName;
  /** Absolute folder that holds skill folders (may not exist yet). */
  dir: string;
  /** Where the folder's real path must stay to be a layer folder at all (absent for folders the CLI's user named). */
  boundary?: LayerBoundary;
  plugin?: string;
  /** ISO time of the plugin install (plugin layer only), used to break priority ties. */
  installedAt?: string;
}
