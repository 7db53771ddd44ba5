// One confinement rule for every door that touches a layer (DESIGN.md, issue #12): a layer root is resolved with
// realpath, and every path below it must resolve (through any symbolic link on the way) inside that real root.
// Comparing paths as written is not confinement: `skills/evil -> /etc` is "inside" as a string.
import fs from "node:fs";
import path from "node:path";
import { isInside, type LayerBoundary } from "./layers";

export type ConfinementCode = "link.outside-layer" | "link.broken" | "link.is-root" | "link.layer-outside";

/** A path that resolves outside its layer; `code` is stable, `message` says why and what to do. */
export class ConfinementError extends Error {
  constructor(
    message: string,
    readonly code: ConfinementCode,
    /** Where the link points (absent for a broken link). */
    readonly target?: string,
  ) {
    super(message);
    this.name = "ConfinementError";
  }
}

function lexists(p: string): boolean {
  return fs.lstatSync(/*turbopackIgnore: true*/ p, { throwIfNoEntry: false }) !== undefined;
}

/**
 * The real path of `p`: realpath of its deepest existing part, with the parts that do not exist yet appended
 * (so a file about to be created is judged by the folder it will land in). A dangling link on the way is an error.
 */
export function realPathOf(p: string): string {
  const abs = path.resolve(p);
  let probe = abs;
  const rest: string[] = [];
  while (!lexists(probe)) {
    const parent = path.dirname(probe);
    if (parent === probe) break;
    rest.unshift(path.basename(probe));
    probe = parent;
  }
  let real: string;
  try {
    real = fs.realpathSync(/*turbopackIgnore: true*/ probe);
  } catch {
    throw new ConfinementError(`${path.basename(probe)} is a broken symbolic link; it is refused.`, "link.broken");
  }
  return rest.length ? path.join(real, ...rest) : real;
}

/** The layer root's own real path (the root itself may be a link, e.g. ~/.claude/skills into a dotfiles folder). */
export function realRoot(root: string): string {
  try {
    return fs.realpathSync(/*turbopackIgnore: true*/ root);
  } catch {
    return path.resolve(root); // not created yet: nothing to follow
  }
}

/**
 * Refuses `abs` (a path below `root`, existing or not) when it resolves outside the root's real path, or onto the
 * root itself (a link `skills/x -> .` would make the whole layer one skill). Returns the real path.
 */
export function assertInsideLayer(root: string, abs: string, what = path.basename(abs)): string {
  const boundary = realRoot(root);
  const real = realPathOf(abs);
  if (real === boundary) throw new ConfinementError(`${what} resolves to the layer folder itself; it is refused.`, "link.is-root", real);
  if (!isInside(boundary, real)) {
    // The target stays out of the message: messages reach every console user, and a host path outside the data
    // home is none of their business (the error keeps it in `target` for the owner's tools).
    throw new ConfinementError(
      `${what} is a symbolic link (or goes through one) to a place outside its layer folder. OmniForge does not read, write, export, activate or run anything through it; delete the link or move the skill into the layer.`,
      "link.outside-layer",
      real,
    );
  }
  return real;
}

/** The reason a linked folder in a layer is refused, or null when it stays inside the layer. */
export function linkEscape(root: string, link: string): ConfinementError | null {
  try {
    assertInsideLayer(root, link, path.relative(root, link) || path.basename(link));
    return null;
  } catch (e) {
    if (e instanceof ConfinementError) return e;
    throw e;
  }
}

/**
 * Why a layer folder is no layer folder at all (issue #35), or null: its real path (through a link at the folder
 * or at any folder above it) leaves its boundary's real path, or lands in the part the boundary excludes. Such a
 * folder is never walked, watched or read; every skill "inside" it is refused too.
 */
export function layerFolderEscape(root: { dir: string; boundary?: LayerBoundary }): ConfinementError | null {
  const { boundary } = root;
  if (!boundary) return null;
  const label = path.relative(boundary.dir, root.dir) || path.basename(root.dir);
  let real: string;
  try {
    real = realPathOf(root.dir);
  } catch {
    return new ConfinementError(`The ${boundary.kind} folder ${label} is a broken symbolic link; nothing is read from it.`, "link.broken");
  }
  const inside = realRoot(boundary.dir);
  const excluded = boundary.exclude ? realRoot(boundary.exclude) : null;
  const out = !isInside(inside, real) || (excluded !== null && !isInside(excluded, inside) && isInside(excluded, real));
  if (!out) return null;
  return new ConfinementError(
    `The ${boundary.kind} folder ${label} is a symbolic link (or goes through one) to a place outside the ${boundary.kind}. It is not a skills folder: OmniForge lists, reads, exports and runs nothing from it. Delete the link, or move the skills into the ${boundary.kind}.`,
    "link.layer-outside",
    real,
  );
}

/** layerFolderEscape as an exception: for the doors that reach a layer folder by its path (services/skills). */
export function assertLayerFolder(root: { dir: string; boundary?: LayerBoundary }): void {
  const why = layerFolderEscape(root);
  if (why) throw why;
}
