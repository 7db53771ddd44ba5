// Applying a printed plan to one folder so that whatever stops it (a write that fails, Ctrl-C, a killed process,
// another sync) leaves the folder and its lock file agreeing. Under the folder's run lock it plans again and does
// only what both plans say; the lock file is rewritten (tmp + rename) with each skill; staging and trash folders go
// on failure, and those of a run that died go at the start of the next.
import fs from "node:fs";
import path from "node:path";
import type { SkillFile } from "../registry/skill-files";
import { LOCK_TMP, readLock, writeLock, type LockEntry, type SyncLock } from "./lock";
import { entryAt, type FolderPlan, type Step } from "./plan";
import { acquireRunLock, isAlive } from "./run-lock";
import { yieldToEventLoop } from "../turns";

/** `.staging-<name>-<pid>` and `.trash-<name>-<pid>`: a whole skill each, that an agent must not read for long. */
const LEFTOVER = /^\.(?:staging|trash)-.+-(\d+)$/;

const staged = (folder: string, kind: "staging" | "trash", name: string) => path.join(folder, `.${kind}-${name}-${process.pid}`);

/** Staging and trash folders and lock temporaries of runs that died (their pid is gone). Ours and live ones stay. */
function removeLeftovers(folder: string): void {
  for (const name of fs.readdirSync(folder)) {
    const pid = Number((LEFTOVER.exec(name) ?? LOCK_TMP.exec(name))?.[1]);
    if (pid && pid !== process.pid && !isAlive(pid)) fs.rmSync(path.join(folder, name), { recursive: true, force: true });
  }
}

/** Runs `undo` after a failure without letting its own failure hide the first one. */
function bestEffort(undo: () => void): void {
  try {
    undo();
  } catch {
    /* the original error is what the user needs */
  }
}

function stage(folder: string, name: string, files: SkillFile[]): string {
  const staging = staged(folder, "staging", name);
  fs.rmSync(staging, { recursive: true, force: true });
  try {
    for (const f of files) {
      const abs = path.resolve(staging, ...f.path.split("/"));
      if (!abs.startsWith(staging + path.sep)) throw new Error(`refused to write "${f.path}" outside ${name}`);
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      fs.writeFileSync(abs, f.data, { mode: f.executable ? 0o755 : 0o644 });
    }
  } catch (e) {
    bestEffort(() => fs.rmSync(staging, { recursive: true, force: true }));
    throw e;
  }
  return staging;
}

/**
 * One step, recorded in the lock file as it lands. The order makes every point a crash can stop at read right on
 * the next run: an entry recorded for a folder not yet (or no longer) there is "add" again, never a clash.
 */
function applyStep(folder: string, lock: SyncLock, s: Step, files: SkillFile[], entry: LockEntry): void {
  const dir = path.join(folder, s.name);
  const before = lock.skills[s.name];
  const setEntry = (e: LockEntry | undefined) => {
    if (e) lock.skills[s.name] = e;
    else delete lock.skills[s.name];
    writeLock(folder, lock);
  };
  const restore = () => bestEffort(() => setEntry(before));
  if (s.kind === "remove") {
    const trash = staged(folder, "trash", s.name);
    fs.renameSync(dir, trash);
    try {
      setEntry(undefined);
    } catch (e) {
      bestEffort(() => fs.renameSync(trash, dir));
      if (before) lock.skills[s.name] = before;
      throw e;
    }
    fs.rmSync(trash, { recursive: true, force: true });
    return;
  }
  const staging = stage(folder, s.name, files);
  const trash = s.kind === "update" ? staged(folder, "trash", s.name) : null;
  try {
    if (trash) fs.renameSync(dir, trash);
  } catch (e) {
    bestEffort(() => fs.rmSync(staging, { recursive: true, force: true }));
    throw e;
  }
  try {
    setEntry(entry);
    fs.renameSync(staging, dir);
  } catch (e) {
    bestEffort(() => fs.rmSync(staging, { recursive: true, force: true }));
    if (trash) bestEffort(() => fs.renameSync(trash, dir));
    restore();
    throw e;
  }
  if (trash) fs.rmSync(trash, { recursive: true, force: true });
}

const changes = (s: Step) => s.kind === "add" || s.kind === "update" || s.kind === "remove";
const same = (a: Step, b: Step) => a.kind === b.kind && a.name === b.name && a.digest === b.digest;

export interface FolderOutcome {
  /** The steps carried out. */
  done: Step[];
  /** Printed steps the folder no longer allows (another sync or an edit came first): left for the next sync. */
  skipped: Step[];
  /** `stop()` said so between two skills: the rest is left for the next sync. */
  interrupted: boolean;
}

/**
 * Applies `printed` to its folder: takes the run lock, cleans up after runs that died, plans again with `replan`
 * (the folder may have changed since the plan was printed) and carries out each step both plans agree on.
 * Between skills it yields to the event loop and asks `stop` (a Ctrl-C), so an interrupt lands between two skills.
 */
export async function applyFolder(
  printed: FolderPlan,
  replan: () => FolderPlan,
  files: (name: string) => SkillFile[],
  opts: { now?: Date; stop?: () => boolean } = {},
): Promise<FolderOutcome> {
  fs.mkdirSync(printed.folder, { recursive: true });
  const release = acquireRunLock(printed.folder);
  try {
    removeLeftovers(printed.folder);
    const current = replan();
    const todo = current.steps.filter((s) => changes(s) && printed.steps.some((p) => same(p, s)));
    // A printed step that is now "keep" was done by another run: not worth a word.
    const skipped = printed.steps.filter((p) => changes(p) && !todo.some((s) => same(p, s)) && !current.steps.some((s) => s.kind === "keep" && s.name === p.name && s.digest === p.digest));
    const lock = readLock(printed.folder);
    const done: Step[] = [];
    const syncedAt = (opts.now ?? new Date()).toISOString();
    for (const s of todo) {
      await yieldToEventLoop();
      if (opts.stop?.()) return { done, skipped, interrupted: true };
      applyStep(printed.folder, lock, s, s.kind === "remove" ? [] : files(s.name), { source: printed.source, digest: s.digest!, syncedAt, ...(s.provenance ? { provenance: s.provenance } : {}) });
      done.push(s);
    }
    // Entries whose folder is gone (removed by hand, or replaced by a link or a file) are forgotten: nothing of ours
    // is left there to own.
    const gone = Object.keys(lock.skills).filter((n) => lock.skills[n]!.source === printed.source && entryAt(path.join(printed.folder, n)) !== "folder");
    if (gone.length) {
      for (const n of gone) delete lock.skills[n];
      writeLock(printed.folder, lock);
    }
    return { done, skipped, interrupted: false };
  } finally {
    release();
  }
}
