// The per-run scratch folder made safe to hand to the sandbox user before a run.
import fs from "node:fs";
import path from "node:path";
import { SandboxRefusal } from "./script-path";
import { blockedAncestor } from "./skill-access";

export interface ScratchOwner {
  /** Only a root server changes owners; otherwise scratch keeps the server's uid. */
  root: boolean;
  uid: number;
  gid: number;
  /** Folders under it are always taken over (see SandboxOptions.scratchRoot). */
  scratchRoot?: string;
}

/**
 * Scratch belongs to the sandbox uid, 0700, and is never a symlink (the sandbox could have planted
 * one). An existing folder is taken over only when it is empty or already the sandbox's, so a wrong
 * path from a caller can never chown a real folder. Returns the first folder above it the sandbox user
 * cannot enter (a private data home), or null.
 */
export function prepareScratch(dir: string, owner: ScratchOwner): string | null {
  if (path.resolve(dir) === "/" || path.resolve(dir) !== dir.replace(/\/+$/, "")) {
    throw new SandboxRefusal(`The scratch folder must be a normalized absolute path other than /, got "${dir}"`);
  }
  let st: fs.Stats | undefined;
  try {
    st = fs.lstatSync(dir);
  } catch {
    fs.mkdirSync(path.dirname(dir), { recursive: true, mode: 0o755 });
    fs.mkdirSync(dir, { mode: 0o700 });
    st = fs.lstatSync(dir);
  }
  if (st.isSymbolicLink() || !st.isDirectory()) throw new SandboxRefusal(`The scratch folder ${dir} is not a plain directory`);
  const mine = owner.root ? st.uid === owner.uid : true;
  const underRoot = owner.scratchRoot !== undefined && dir.startsWith(owner.scratchRoot + path.sep);
  if (!mine && !underRoot && fs.readdirSync(dir).length > 0) {
    throw new SandboxRefusal(
      `The scratch folder ${dir} is not empty and does not belong to the sandbox user; refusing to take it over ` +
        "(create it empty, chown it to the sandbox uid, or configure the sandbox's scratchRoot)",
    );
  }
  if (owner.root && !mine) fs.chownSync(dir, owner.uid, owner.gid);
  fs.chmodSync(dir, 0o700);
  return owner.root ? blockedAncestor(dir, owner.uid, owner.gid) : null;
}

/** Where a working folder really is, symlinks followed: its "/"-separated path inside the scratch, or why not. */
export type ScratchFolder = { rel: string } | { problem: "missing" | "outside" | "not-a-folder" };

/** One containment rule for a script's workdir, shared by the tool that takes it and the sandbox that runs it. */
export function realScratchFolder(scratchDir: string, abs: string): ScratchFolder {
  let real: string;
  let scratchReal: string;
  try {
    scratchReal = fs.realpathSync(scratchDir);
    real = fs.realpathSync(abs);
  } catch {
    return { problem: "missing" };
  }
  const rel = path.relative(scratchReal, real);
  // Only ".." itself or a path through it leaves: a folder named "..build" is inside.
  if (rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return { problem: "outside" };
  if (!fs.statSync(real).isDirectory()) return { problem: "not-a-folder" };
  return { rel: rel.split(path.sep).join("/") };
}
