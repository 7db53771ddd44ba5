// One request routed over a set of resolved skills: the one ranking and the listing the agent would get for it
// under a budget. The loop, the CLI's `skill search` and the playground's preview all call this, so what they
// show is what the agent sees.
import type { SkillEntry } from "../registry/types";
import type { SkillIndex } from "../registry/skill-index";
import type { SearchResult } from "../search/engine";
import { buildListing, type Listing } from "./listing";
import { searchOf } from "./skill-source";
import type { AgentSkillSource, DisclosureMode } from "./types";

/** How many ranked skills are kept for the listing (no sane budget describes or names more). */
export const RANKED_KEEP = 400;

export interface Routed {
  ranked: SearchResult;
  listing: Listing;
  /** Entries by id (search hits carry ids). */
  byId: Map<string, SkillEntry>;
}

export interface RouteOptions {
  mode: DisclosureMode;
  budgetChars: number;
  /** Earlier user requests, most recent last. */
  recent?: string[];
}

export interface Router {
  /** Ranks one request and lists the skills for it. */
  route(request: string, opts: RouteOptions): Routed;
  /** Lists the skills for a ranking made elsewhere (the lexical one fused with meaning, search/hybrid.ts). */
  list(ranked: SearchResult, opts: RouteOptions): Routed;
  /** The one ranking over exactly these entries (for skill_search). */
  search: ReturnType<typeof searchOf>;
}

/** A router over these entries (the search is built or followed once; each call ranks and lists one request). */
export function router(source: AgentSkillSource, entries: SkillEntry[], index?: SkillIndex): Router {
  const search = searchOf(source, entries, index);
  const byId = new Map(entries.map((e) => [e.id, e]));
  const listable = entries.map((e) => ({ name: e.name, description: e.description, location: e.file, ...(e.tags.length ? { tags: e.tags } : {}) }));
  const list = (ranked: SearchResult, opts: RouteOptions): Routed => ({
    ranked,
    listing: buildListing(listable, { mode: opts.mode, budgetChars: opts.budgetChars, ranking: ranked.hits.map((h) => byId.get(h.id)?.name ?? h.name) }),
    byId,
  });
  const route = (request: string, opts: RouteOptions): Routed => list(search(request, { limit: RANKED_KEEP, ...(opts.recent?.length ? { recent: opts.recent } : {}) }), opts);
  return { route, list, search };
}
