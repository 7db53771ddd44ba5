// The skills list: every definition the user can see across the layers, with its resolution status, last change
// (from the version history, or "on disk" when the file changed outside the console), search over name,
// description, tags and body text, filters, sort and pages. Bodies are read once per digest and cached.
import fs from "node:fs";
import { type CandidateStatus, type LayerName, type RegistryPolicy, type SkillEntry, type SkillIndex } from "../../runtime/registry";
import { changeKey } from "./history";
import { historyKey, refFromEntry, type SkillRef } from "./location";
import { configContextFor } from "../skills-config";
import { resolveCached } from "../catalog/resolution";

export type ListStatus = "active" | Exclude<CandidateStatus, "winner">;
export type ListSort = "name" | "layer" | "status" | "changed";

export interface ListQuery {
  q?: string;
  layers?: LayerName[];
  statuses?: ListStatus[];
  tag?: string;
  sort?: ListSort;
  dir?: "asc" | "desc";
  offset?: number;
  limit?: number;
}

export interface SkillRow {
  /** Stable key for the UI: layer/plugin/owner/folder. */
  key: string;
  ref: SkillRef;
  name: string;
  description: string;
  layer: LayerName;
  plugin?: string;
  status: ListStatus;
  statusReason: string;
  validity: SkillEntry["status"];
  tags: string[];
  lastChange: { at: number; by: string | null; source: "console" | "disk" };
}

export interface SkillList {
  /** Definitions that match (one skill may be defined in several layers). */
  total: number;
  /** Distinct skill names among them: what a person calls "skills". */
  names: number;
  offset: number;
  rows: SkillRow[];
  counts: { layers: Record<string, number>; statuses: Record<string, number> };
  tags: string[];
}

const LAYER_ORDER: LayerName[] = ["enterprise", "personal", "project", "plugin"];
const STATUS_ORDER: ListStatus[] = ["active", "pending-approval", "shadowed", "disabled", "blocked", "out-of-scope", "invalid"];

// digest -> lowercased body text. Bounded so a huge catalog cannot grow it without limit.
const bodyCache = new Map<string, string>();
const BODY_CACHE_MAX = 20_000;

function bodyText(entry: SkillEntry): string {
  const hit = bodyCache.get(entry.digest);
  if (hit !== undefined) return hit;
  let text = "";
  try {
    const raw = fs.readFileSync(entry.file, "utf8");
    // Skip the frontmatter: name, description and tags are searched from the entry itself.
    const end = raw.startsWith("---") ? raw.indexOf("\n---", 3) : -1;
    text = (end >= 0 ? raw.slice(end + 4) : raw).toLowerCase();
  } catch {
    text = "";
  }
  if (bodyCache.size >= BODY_CACHE_MAX) bodyCache.delete(bodyCache.keys().next().value as string);
  if (entry.digest) bodyCache.set(entry.digest, text);
  return text;
}

interface BaseRow {
  row: Omit<SkillRow, "lastChange">;
  entry: SkillEntry;
  changeKey: string;
}

// Rows without their last change, per resolution (itself cached per index version and context) and user: what
// stays the same between requests is computed once per change, as the resolution is.
const baseRowsMemo = new WeakMap<object, Map<string, BaseRow[]>>();

function baseRows(index: SkillIndex, policy: RegistryPolicy, userId: string): BaseRow[] {
  const resolution = resolveCached(index, { policy, ...configContextFor(index.config.home, index.config.projectRoot) });
  let byUser = baseRowsMemo.get(resolution);
  if (!byUser) baseRowsMemo.set(resolution, (byUser = new Map()));
  const hit = byUser.get(userId);
  if (hit) return hit;
  const rows = index.entries().map((entry) => {
    const candidate = resolution.byName[entry.name]?.candidates.find((c) => c.entry.id === entry.id);
    const status: ListStatus = !candidate ? (entry.loadable ? "shadowed" : "invalid") : candidate.status === "winner" ? "active" : candidate.status;
    const ref = refFromEntry(entry, userId);
    const row = {
      key: [ref.layer, ref.plugin ?? "", ref.base ?? "", ref.skill].join("/"),
      ref,
      name: entry.name,
      description: entry.description,
      layer: entry.layer,
      ...(entry.plugin ? { plugin: entry.plugin } : {}),
      status,
      statusReason: candidate?.reason ?? "",
      validity: entry.status,
      tags: entry.tags,
    };
    return { row, entry, changeKey: changeKey(historyKey(ref)) };
  });
  byUser.set(userId, rows);
  return rows;
}

/** Every row (unfiltered) for the user whose index this is. Callers must not change the rows. */
export function skillRows(
  index: SkillIndex,
  policy: RegistryPolicy,
  changes: Map<string, { authorEmail: string; createdAt: number }>,
  userId: string,
): SkillRow[] {
  return baseRows(index, policy, userId).map(({ row, entry, changeKey }) => {
    const change = changes.get(changeKey);
    // The file is newer than the console's last version: someone changed it on disk (git, another editor).
    const lastChange =
      change && entry.mtimeMs <= change.createdAt + 2000
        ? { at: change.createdAt, by: change.authorEmail, source: "console" as const }
        : { at: Math.round(entry.mtimeMs), by: null, source: "disk" as const };
    return { ...row, lastChange };
  });
}

/** Filters, searches, sorts and pages rows. Body text is searched only for rows the cheaper fields did not match. */
export function queryRows(rows: SkillRow[], entriesByKey: Map<string, SkillEntry>, query: ListQuery): SkillList {
  const q = query.q?.trim().toLowerCase() ?? "";
  const words = q ? q.split(/\s+/) : [];
  const layers = query.layers?.length ? new Set(query.layers) : null;
  const statuses = query.statuses?.length ? new Set(query.statuses) : null;
  const tag = query.tag?.trim().toLowerCase() || null;
  const counts = { layers: {} as Record<string, number>, statuses: {} as Record<string, number> };
  const tags = new Set<string>();
  const matched: SkillRow[] = [];
  for (const row of rows) {
    if (words.length) {
      const head = `${row.name}\n${row.description}\n${row.tags.join(" ")}`.toLowerCase();
      const missing = words.filter((w) => !head.includes(w));
      if (missing.length) {
        const entry = entriesByKey.get(row.key);
        const body = entry ? bodyText(entry) : "";
        if (!missing.every((w) => body.includes(w))) continue;
      }
    }
    if (tag && !row.tags.some((t) => t.toLowerCase() === tag)) continue;
    // Facet counts ignore their own filter, so the UI can show what each choice would give.
    if (!statuses || statuses.has(row.status)) counts.layers[row.layer] = (counts.layers[row.layer] ?? 0) + 1;
    if (!layers || layers.has(row.layer)) counts.statuses[row.status] = (counts.statuses[row.status] ?? 0) + 1;
    if (layers && !layers.has(row.layer)) continue;
    if (statuses && !statuses.has(row.status)) continue;
    for (const t of row.tags) tags.add(t);
    matched.push(row);
  }
  const sign = query.dir === "desc" ? -1 : 1;
  const byName = (a: SkillRow, b: SkillRow) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const cmp: Record<ListSort, (a: SkillRow, b: SkillRow) => number> = {
    name: (a, b) => byName(a, b) || LAYER_ORDER.indexOf(a.layer) - LAYER_ORDER.indexOf(b.layer),
    layer: (a, b) => LAYER_ORDER.indexOf(a.layer) - LAYER_ORDER.indexOf(b.layer) || byName(a, b),
    status: (a, b) => STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status) || byName(a, b),
    changed: (a, b) => a.lastChange.at - b.lastChange.at || byName(a, b),
  };
  const sort = cmp[query.sort ?? "name"];
  matched.sort((a, b) => sign * sort(a, b));
  const offset = Math.max(0, query.offset ?? 0);
  const limit = Math.min(500, Math.max(1, query.limit ?? 100));
  return { total: matched.length, names: new Set(matched.map((r) => r.name)).size, offset, rows: matched.slice(offset, offset + limit), counts, tags: [...tags].sort() };
}

/** Rows and their entries keyed the same way, for queryRows. */
export function entriesByKey(index: SkillIndex, rows: SkillRow[]): Map<string, SkillEntry> {
  const entries = index.entries();
  const map = new Map<string, SkillEntry>();
  rows.forEach((r, i) => map.set(r.key, entries[i]!));
  return map;
}
