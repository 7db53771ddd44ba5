// Plan, then apply. For one target folder: what to add, update and remove so it matches the catalog, touching
// only the skills the lock file says sync wrote (from this source, unchanged since). A folder sync did not write,
// or a copy someone edited by hand, is a clash: reported, left alone.
import fs from "node:fs";
import path from "node:path";
import { isSafeSegment } from "../registry/layers";
import { readSkillFolder, type SkillFile } from "../registry/skill-files";
import { folderDigest } from "./digest";
import { readLock, writeLock, type SyncLock } from "./lock";

export interface CatalogItem {
  name: string;
  digest: string;
  allowedTools?: string[];
}

export type StepKind = "add" | "update" | "remove" | "keep" | "clash";

export interface Step {
  kind: StepKind;
  name: string;
  /** The digest it will have (add, update, keep) or had (remove). */
  digest?: string;
  /** Why (clash, remove) in a sentence. */
  reason?: string;
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

function localDigest(dir: string): string | null {
  try {
    return folderDigest(readSkillFolder(dir));
  } catch {
    return null;
  }
}

export function planFolder(folder: string, agents: string[], source: string, catalog: CatalogItem[], agentLabel: string): FolderPlan {
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
    if (!fs.existsSync(dir)) {
      steps.push({ kind: "add", name: item.name, digest: item.digest });
      continue;
    }
    if (!mine) {
      const other = lock.skills[item.name];
      steps.push({ kind: "clash", name: item.name, reason: other ? `written by a sync from ${other.source}; left alone` : "a folder omniforge sync did not write; left alone" });
      continue;
    }
    const local = localDigest(dir);
    if (local === item.digest) steps.push({ kind: "keep", name: item.name, digest: item.digest });
    else if (local === mine.digest) steps.push({ kind: "update", name: item.name, digest: item.digest });
    else steps.push({ kind: "clash", name: item.name, reason: "changed by hand since the last sync; left alone (remove the folder to take the console's copy)" });
  }
  for (const [name, entry] of Object.entries(lock.skills)) {
    if (wanted.has(name) || entry.source !== source || !isSafeSegment(name)) continue;
    const dir = path.join(folder, name);
    if (!fs.existsSync(dir)) continue;
    if (localDigest(dir) === entry.digest) {
      steps.push({ kind: "remove", name, digest: entry.digest, reason: "no longer in your catalog (revoked, blocked or deleted)" });
    } else {
      steps.push({ kind: "clash", name, reason: "no longer in your catalog, but changed by hand since the last sync; left alone" });
    }
  }
  const order: Record<StepKind, number> = { add: 0, update: 1, remove: 2, clash: 3, keep: 4 };
  steps.sort((a, b) => order[a.kind] - order[b.kind] || (a.name < b.name ? -1 : 1));
  return { folder, agents, source, steps, notes };
}

export const hasChanges = (p: FolderPlan) => p.steps.some((s) => s.kind === "add" || s.kind === "update" || s.kind === "remove");

/** Writes the plan: new folders are staged beside the target and renamed in, so an agent never reads half a skill. */
export function applyFolder(plan: FolderPlan, files: (name: string) => SkillFile[], now = new Date()): void {
  fs.mkdirSync(plan.folder, { recursive: true });
  const lock: SyncLock = readLock(plan.folder);
  for (const s of plan.steps) {
    const dir = path.join(plan.folder, s.name);
    if (s.kind === "add" || s.kind === "update") {
      const staging = path.join(plan.folder, `.staging-${s.name}-${process.pid}`);
      fs.rmSync(staging, { recursive: true, force: true });
      for (const f of files(s.name)) {
        const abs = path.resolve(staging, ...f.path.split("/"));
        if (!abs.startsWith(staging + path.sep)) throw new Error(`refused to write "${f.path}" outside ${s.name}`);
        fs.mkdirSync(path.dirname(abs), { recursive: true });
        fs.writeFileSync(abs, f.data, { mode: f.executable ? 0o755 : 0o644 });
      }
      if (s.kind === "update") {
        const trash = path.join(plan.folder, `.trash-${s.name}-${process.pid}`);
        fs.renameSync(dir, trash);
        fs.renameSync(staging, dir);
        fs.rmSync(trash, { recursive: true, force: true });
      } else {
        fs.renameSync(staging, dir);
      }
      lock.skills[s.name] = { source: plan.source, digest: s.digest!, syncedAt: now.toISOString() };
    } else if (s.kind === "remove") {
      fs.rmSync(dir, { recursive: true, force: true });
      delete lock.skills[s.name];
    }
  }
  // Entries whose folder is gone (removed by hand) are forgotten: nothing left to own.
  for (const name of Object.keys(lock.skills)) {
    if (lock.skills[name]!.source === plan.source && !fs.existsSync(path.join(plan.folder, name))) delete lock.skills[name];
  }
  writeLock(plan.folder, lock);
}

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
