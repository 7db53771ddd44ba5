// Plan, then apply. For one target folder: what to add, update and remove so it matches the catalog, touching
// only the skills the lock file says sync wrote (from this source, unchanged since). A folder sync did not write,
// or a copy someone edited by hand, is a clash: reported, left alone.
import fs from "node:fs";
import path from "node:path";
import { isSafeSegment } from "../registry/layers";
import { isSkippedEntry, readSkillFolder } from "../registry/skill-files";
import { folderDigest } from "./digest";
import { readLock, SyncFolderError, type LockProvenance } from "./lock";

export interface CatalogItem {
  name: string;
  digest: string;
  allowedTools?: string[];
  /** The git source behind it (the catalog's `source`), kept in the lock file. */
  source?: LockProvenance;
}

export type StepKind = "add" | "update" | "remove" | "keep" | "clash";

export interface Step {
  kind: StepKind;
  name: string;
  /** The digest it will have (add, update, keep) or had (remove). */
  digest?: string;
  /** Why (clash, remove) in a sentence. */
  reason?: string;
  /** The git source the written skill comes from (add, update). */
  provenance?: LockProvenance;
}

export interface FolderPlan {
  folder: string;
  /** Agents served by this folder (two agents may read the same one). */
  agents: string[];
  source: string;
  steps: Step[];
  /** Extension fields that do not carry over, one sentence each. */
  notes: string[];
}

/**
 * What is at `dir`, without following a link: sync writes only real folders, so a link (dangling or not), a file
 * or anything else there was put by someone else.
 */
export function entryAt(dir: string): "none" | "folder" | "other" {
  try {
    return fs.lstatSync(dir).isDirectory() ? "folder" : "other";
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return "none";
    throw e;
  }
}

const NOT_A_FOLDER = "a link or a file, not a folder omniforge sync wrote; left alone";

/**
 * The first thing in a synced copy that its digest leaves out (a .git, node_modules: someone's work, not ours),
 * "/"-separated; null when there is none. Replacing or removing the folder would lose it. Finder's .DS_Store is
 * nobody's work. Links are not followed.
 */
function unrecorded(dir: string, rel = ""): string | null {
  for (const d of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const at = rel ? `${rel}/${d.name}` : d.name;
    if (isSkippedEntry(d.name)) {
      if (d.name !== ".DS_Store") return at;
    } else if (d.isDirectory()) {
      const inner = unrecorded(dir, at);
      if (inner) return inner;
    }
  }
  return null;
}

const holding = (what: string) => `holds "${what}", which omniforge sync did not write; left alone (move it out to take the console's copy)`;

function localDigest(dir: string): string | null {
  try {
    return folderDigest(readSkillFolder(dir));
  } catch {
    return null;
  }
}

/**
 * Stops with one line when `folder`, or the nearest part of its path that exists, cannot hold skills: a file, or a
 * link to nothing (a dotfiles checkout not cloned yet). mkdir's bare EEXIST, ENOTDIR or ENOENT said neither.
 */
function assertUsable(folder: string): void {
  for (let p = folder; ; p = path.dirname(p)) {
    let st: fs.Stats;
    try {
      st = fs.statSync(p);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") return; // the write that follows names the file and the error
      if (code === "ENOENT" && fs.lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink()) {
        const target = path.resolve(path.dirname(p), fs.readlinkSync(p));
        throw new SyncFolderError(`${p} is a link to ${target}, which does not exist; create that folder or remove the link`);
      }
      if (path.dirname(p) === p) return;
      continue;
    }
    if (!st.isDirectory()) throw new SyncFolderError(`${p} is ${st.isFile() ? "a file" : "something else"}, not a folder; move it away and sync again`);
    return;
  }
}

export function planFolder(folder: string, agents: string[], source: string, catalog: CatalogItem[], agentLabel: string): FolderPlan {
  assertUsable(folder);
  const lock = readLock(folder);
  const steps: Step[] = [];
  const notes: string[] = [];
  const wanted = new Set<string>();
  for (const item of catalog) {
    if (!isSafeSegment(item.name)) {
      steps.push({ kind: "clash", name: item.name.slice(0, 64), reason: "not a usable folder name; skipped" });
      continue;
    }
    wanted.add(item.name);
    const dir = path.join(folder, item.name);
    const mine = lock.skills[item.name]?.source === source ? lock.skills[item.name] : undefined;
    if (item.allowedTools?.length) {
      notes.push(`${item.name}: OmniForge enforces allowed-tools (${item.allowedTools.join(", ")}); ${agentLabel} only pre-approves them, so other tools stay available there.`);
    }
    const at = entryAt(dir);
    if (at === "none") {
      steps.push({ kind: "add", name: item.name, digest: item.digest, ...(item.source ? { provenance: item.source } : {}) });
      continue;
    }
    if (at === "other") {
      steps.push({ kind: "clash", name: item.name, reason: NOT_A_FOLDER });
      continue;
    }
    if (!mine) {
      const other = lock.skills[item.name];
      steps.push({ kind: "clash", name: item.name, reason: other ? `written by a sync from ${other.source}; left alone` : "a folder omniforge sync did not write; left alone" });
      continue;
    }
    const local = localDigest(dir);
    const extra = local !== item.digest && local === mine.digest ? unrecorded(dir) : null;
    if (local === item.digest) steps.push({ kind: "keep", name: item.name, digest: item.digest });
    else if (extra) steps.push({ kind: "clash", name: item.name, reason: holding(extra) });
    else if (local === mine.digest) steps.push({ kind: "update", name: item.name, digest: item.digest, ...(item.source ? { provenance: item.source } : {}) });
    else steps.push({ kind: "clash", name: item.name, reason: "changed by hand since the last sync; left alone (remove the folder to take the console's copy)" });
  }
  for (const [name, entry] of Object.entries(lock.skills)) {
    if (wanted.has(name) || entry.source !== source || !isSafeSegment(name)) continue;
    const dir = path.join(folder, name);
    const at = entryAt(dir);
    if (at === "none") continue;
    if (at === "other") steps.push({ kind: "clash", name, reason: `no longer in your catalog; ${NOT_A_FOLDER}` });
    else if (localDigest(dir) === entry.digest) {
      const extra = unrecorded(dir);
      if (extra) steps.push({ kind: "clash", name, reason: `no longer in your catalog, but ${holding(extra)}` });
      else steps.push({ kind: "remove", name, digest: entry.digest, reason: "no longer in your catalog (revoked, blocked or deleted)" });
    } else {
      steps.push({ kind: "clash", name, reason: "no longer in your catalog, but changed by hand since the last sync; left alone" });
    }
  }
  const order: Record<StepKind, number> = { add: 0, update: 1, remove: 2, clash: 3, keep: 4 };
  steps.sort((a, b) => order[a.kind] - order[b.kind] || (a.name < b.name ? -1 : 1));
  return { folder, agents, source, steps, notes };
}

export const hasChanges = (p: FolderPlan) => p.steps.some((s) => s.kind === "add" || s.kind === "update" || s.kind === "remove");

const MARK: Record<StepKind, string> = { add: "+ add   ", update: "~ update", remove: "- remove", keep: "= keep  ", clash: "! clash " };

export function formatPlan(p: FolderPlan, label: string): string {
  const lines = [`${label}: ${p.folder}`];
  if (p.steps.length === 0) lines.push("  (nothing in the catalog, nothing synced before)");
  for (const s of p.steps) {
    const digest = s.digest ? `  ${s.digest.slice(0, 19)}` : "";
    lines.push(`  ${MARK[s.kind]}  ${s.name}${digest}${s.reason ? `  (${s.reason})` : ""}`);
  }
  for (const n of p.notes) lines.push(`  note: ${n}`);
  return lines.join("\n") + "\n";
}
