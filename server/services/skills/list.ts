// The skills list: every definition the user can see across the layers, with its resolution status, last change
// (from the version history, or "on disk" when the file changed outside the console), search over name,
// description, tags and body text, filters, sort and pages. Bodies are read once per digest and cached.
import fs from "node:fs";
import { entryValidity, type LayerName, type RegistryPolicy, type SkillEntry, type SkillIndex } from "../../runtime/registry";
import { changeKey } from "./history";
import { historyKey, refFromEntry, type SkillRef } from "./location";
import { sourceProvenance, type SourceProvenance } from "../../runtime/sources/roots";
import { configContextFor } from "../skills-config";
import { resolveCached } from "../catalog/resolution";
import { LAYERS, type SkillState } from "../../domain/vocabulary";

export type ListSort = "name" | "layer" | "status" | "changed";

export interface ListQuery {
  q?: string;
  layers?: LayerName[];
  statuses?: SkillState[];
  tag?: string;
  sort?: ListSort;
  dir?: "asc" | "desc";
  offset?: number;
  limit?: number;
  /** Only these rows (by key): e.g. those with errors in their problem list (doctor/problem-counts.ts). */
  keys?: ReadonlySet<string>;
}

export interface SkillRow {
  /** Stable key for the UI: layer/plugin/owner/folder. */
  key: string;
  ref: SkillRef;
  name: string;
  description: string;
  layer: LayerName;
  plugin?: string;
  status: SkillState;
  statusReason: string;
  validity: SkillEntry["status"];
  tags: string[];
  lastChange: { at: number; by: string | null; source: "console" | "disk" };
  /** A skill of a git source: its repository (without a password), folder in it and pinned commit. */
  source?: SourceProvenance;
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

const LAYER_ORDER: readonly LayerName[] = LAYERS;
const STATUS_ORDER: SkillState[] = ["active", "pending-approval", "shadowed", "disabled", "blocked", "out-of-scope", "invalid"];

// digest -> lowercased body text. Bounded so a huge catalog cannot grow it without limit.
const bodyCache = new Map<string, string>();
const BODY_CACHE_MAX = 20_000;

function bodyText(entry: SkillEntry): string {
  // No digest: a refused link or layer folder, whose target is never read (not even to match a search).
  if (!entry.digest) return "";
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

/** A row without its last change, with what the list needs again and again computed once. */
export interface ListedRow {
  row: Omit<SkillRow, "lastChange">;
  entry: SkillEntry;
  changeKey: string;
  /** Name, description and tags, lowercased: what a search looks at first. */
  head: string;
}

// Rows without their last change, per resolution (itself cached per index version and context) and user: what
// stays the same between requests is computed once per change, as the resolution is.
const listedMemo = new WeakMap<object, Map<string, ListedRow[]>>();

/** Every definition the user's index holds, resolved with `policy`. Callers must not change the rows. */
export function listedRows(index: SkillIndex, policy: RegistryPolicy, userId: string): ListedRow[] {
  const resolution = resolveCached(index, { policy, ...configContextFor(index.config.home, index.config.projectRoot) });
  let byUser = listedMemo.get(resolution);
  if (!byUser) listedMemo.set(resolution, (byUser = new Map()));
  const hit = byUser.get(userId);
  if (hit) return hit;
  const sources = sourceProvenance(index.config.home);
  const rows = index.entries().map((entry) => {
    const candidate = resolution.byName[entry.name]?.candidates.find((c) => c.entry.id === entry.id);
    const status: SkillState = !candidate ? (entry.loadable ? "shadowed" : "invalid") : candidate.status;
    const ref = refFromEntry(entry, userId, sources);
    const from = sources.get(entry.root);
    const row = {
      key: [ref.layer, ref.plugin ?? "", ref.base ?? "", ...(ref.source ? [`git:${ref.source}`] : []), ref.skill].join("/"),
      ref,
      name: entry.name,
      description: entry.description,
      layer: entry.layer,
      ...(entry.plugin ? { plugin: entry.plugin } : {}),
      status,
      statusReason: candidate?.reason ?? "",
      validity: entryValidity(entry, policy).status,
      tags: entry.tags,
      ...(from ? { source: from } : {}),
    };
    const head = `${row.name}\n${row.description}\n${row.tags.join(" ")}`.toLowerCase();
    return { row, entry, changeKey: changeKey(historyKey(ref)), head };
  });
  byUser.set(userId, rows);
  return rows;
}

type Changes = Map<string, { authorEmail: string; createdAt: number }>;

/** The row with its last change: from the version history, or "on disk" when the file is newer than that. */
function withLastChange({ row, entry, changeKey }: ListedRow, changes: Changes): SkillRow {
  const change = changes.get(changeKey);
  // The file is newer than the console's last version: someone changed it on disk (git, another editor).
  const lastChange =
    change && entry.mtimeMs <= change.createdAt + 2000
      ? { at: change.createdAt, by: change.authorEmail, source: "console" as const }
      : { at: Math.round(entry.mtimeMs), by: null, source: "disk" as const };
  return { ...row, lastChange };
}

/** Every row (unfiltered) for the user whose index this is. */
export function skillRows(index: SkillIndex, policy: RegistryPolicy, changes: Changes, userId: string): SkillRow[] {
  return listedRows(index, policy, userId).map((r) => withLastChange(r, changes));
}

// Rows matching a search, per set of rows (so per catalog version and user) and query: people page through the
// same search and several people search the same words, and reading every body again was most of a list's cost.
const searchMemo = new WeakMap<ListedRow[], Map<string, Set<ListedRow>>>();
const SEARCHES_KEPT = 64;

function searchHits(rows: ListedRow[], q: string): Set<ListedRow> {
  let memo = searchMemo.get(rows);
  if (!memo) searchMemo.set(rows, (memo = new Map()));
  const hit = memo.get(q);
  if (hit) return hit;
  const words = q.split(/\s+/);
  const found = new Set<ListedRow>();
  for (const r of rows) {
    const missing = words.filter((w) => !r.head.includes(w));
    // Body text is searched only for rows the cheaper fields did not match.
    if (!missing.length || missing.every((w) => bodyText(r.entry).includes(w))) found.add(r);
  }
  if (memo.size >= SEARCHES_KEPT) memo.delete(memo.keys().next().value!);
  memo.set(q, found);
  return found;
}

/** What a query finds before paging: the same for every page of it while the rows stay the same. */
interface Found {
  matched: ListedRow[];
  names: number;
  counts: SkillList["counts"];
  tags: string[];
}

// Matches in order, per set of rows (so per catalog version, policy and user) and query without its page: the
// browsing people ask for the same lists over and over, and filtering, counting and sorting every row again was
// most of a list page's CPU. Sorting by last change is left out: that order moves with the version history.
const foundMemo = new WeakMap<ListedRow[], Map<string, Found>>();
const QUERIES_KEPT = 64;

function find(rows: ListedRow[], query: ListQuery): Found {
  const q = query.q?.trim().toLowerCase() ?? "";
  const hits = q ? searchHits(rows, q) : null;
  const layers = query.layers?.length ? new Set(query.layers) : null;
  const statuses = query.statuses?.length ? new Set(query.statuses) : null;
  const tag = query.tag?.trim().toLowerCase() || null;
  const counts = { layers: {} as Record<string, number>, statuses: {} as Record<string, number> };
  const tags = new Set<string>();
  const matched: ListedRow[] = [];
  for (const listed of rows) {
    const row = listed.row;
    if (hits && !hits.has(listed)) continue;
    if (query.keys && !query.keys.has(row.key)) continue;
    if (tag && !row.tags.some((t) => t.toLowerCase() === tag)) continue;
    // Facet counts ignore their own filter, so the UI can show what each choice would give.
    if (!statuses || statuses.has(row.status)) counts.layers[row.layer] = (counts.layers[row.layer] ?? 0) + 1;
    if (!layers || layers.has(row.layer)) counts.statuses[row.status] = (counts.statuses[row.status] ?? 0) + 1;
    if (layers && !layers.has(row.layer)) continue;
    if (statuses && !statuses.has(row.status)) continue;
    for (const t of row.tags) tags.add(t);
    matched.push(listed);
  }
  if (query.sort !== "changed") {
    const sign = query.dir === "desc" ? -1 : 1;
    const cmp: Record<Exclude<ListSort, "changed">, (a: ListedRow, b: ListedRow) => number> = {
      name: (a, b) => byName(a, b) || layerRank(a) - layerRank(b),
      layer: (a, b) => layerRank(a) - layerRank(b) || byName(a, b),
      status: (a, b) => statusRank(a) - statusRank(b) || byName(a, b),
    };
    const sort = cmp[query.sort ?? "name"];
    matched.sort((a, b) => sign * sort(a, b));
  }
  return { matched, names: new Set(matched.map((r) => r.row.name)).size, counts, tags: [...tags].sort() };
}

const byName = (a: ListedRow, b: ListedRow) => (a.row.name < b.row.name ? -1 : a.row.name > b.row.name ? 1 : 0);
const layerRank = (r: ListedRow) => LAYER_ORDER.indexOf(r.row.layer);
const statusRank = (r: ListedRow) => STATUS_ORDER.indexOf(r.row.status);

function foundFor(rows: ListedRow[], query: ListQuery): Found {
  if (query.sort === "changed" || query.keys) return find(rows, query);
  const key = JSON.stringify([query.q?.trim().toLowerCase() ?? "", query.layers ?? [], query.statuses ?? [], query.tag?.trim().toLowerCase() ?? "", query.sort ?? "name", query.dir ?? "asc"]);
  let memo = foundMemo.get(rows);
  if (!memo) foundMemo.set(rows, (memo = new Map()));
  let found = memo.get(key);
  if (!found) {
    found = find(rows, query);
    if (memo.size >= QUERIES_KEPT) memo.delete(memo.keys().next().value!);
    memo.set(key, found);
  }
  return found;
}

/**
 * Filters, searches, sorts and pages rows. The last change is looked up for the page's rows only (for every
 * match when sorting by it).
 */
export function queryRows(rows: ListedRow[], changes: Changes, query: ListQuery): SkillList {
  const { matched, names, counts, tags } = foundFor(rows, query);
  const offset = Math.max(0, query.offset ?? 0);
  const limit = Math.min(500, Math.max(1, query.limit ?? 100));
  let page: SkillRow[];
  if (query.sort === "changed") {
    const sign = query.dir === "desc" ? -1 : 1;
    const full = matched.map((r) => ({ listed: r, row: withLastChange(r, changes) }));
    full.sort((a, b) => sign * (a.row.lastChange.at - b.row.lastChange.at || byName(a.listed, b.listed)));
    page = full.slice(offset, offset + limit).map((f) => f.row);
  } else {
    page = matched.slice(offset, offset + limit).map((r) => withLastChange(r, changes));
  }
  // Counts and tags are shared by every page of the query: callers must not change them.
  return { total: matched.length, names, offset, rows: page, counts, tags };
}

/** Rows and their entries keyed the same way, for queryRows. */
export function entriesByKey(index: SkillIndex, rows: SkillRow[]): Map<string, SkillEntry> {
  const entries = index.entries();
  const map = new Map<string, SkillEntry>();
  rows.forEach((r, i) => map.set(r.key, entries[i]!));
  return map;
}
