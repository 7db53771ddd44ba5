// One request routed over a set of resolved skills: the one ranking and the listing the agent would get for it
// under a budget. The loop (agent run, the playground's turns, trigger tests), the CLI's `skill search`, the
// playground's preview and the console's search box all call this, so what they show is what the agent sees. With
// an embeddings endpoint configured (search/hybrid.ts), the ranking is the lexical one fused with meaning, here
// and nowhere else.
import type { SkillEntry } from "../registry/types";
import type { SkillIndex } from "../registry/skill-index";
import type { SearchResult } from "../search/engine";
import type { HybridRanker } from "../search/hybrid";
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
  /** What a person should know about how it was ranked (the embeddings endpoint failed and words alone ranked it). */
  notes: string[];
}

export interface RouteOptions {
  mode: DisclosureMode;
  budgetChars: number;
  /** Earlier user requests, most recent last. */
  recent?: string[];
}

export interface Router {
  /** Ranks one request (by words, fused with meaning when the router has it) and lists the skills for it. */
  route(request: string, opts: RouteOptions): Promise<Routed>;
  /** Lists the skills for a ranking made elsewhere (the lexical one fused with meaning, search/hybrid.ts). */
  list(ranked: SearchResult, opts: RouteOptions, notes?: string[]): Routed;
  /** The one ranking over exactly these entries, by words alone. */
  search: ReturnType<typeof searchOf>;
  /** The first `limit` of the ranking `route` makes (meaning fused when the router has it), without a listing: skill_search. */
  find(request: string, limit: number): Promise<{ ranked: SearchResult; notes: string[] }>;
}

/**
 * A router over these entries (the search is built or followed once; each call ranks and lists one request). With
 * `meaning`, each ranking is fused with the skills' ranking by meaning; while its endpoint is down, words alone rank,
 * and the first ranking of an outage says so in its notes, as does the first one after the endpoint answers again.
 */
export function router(source: AgentSkillSource, entries: SkillEntry[], index?: SkillIndex, meaning?: HybridRanker | null): Router {
  const search = searchOf(source, entries, index);
  const byId = new Map(entries.map((e) => [e.id, e]));
  const listable = entries.map((e) => ({ name: e.name, description: e.description, location: e.file, ...(e.tags.length ? { tags: e.tags } : {}) }));
  const meaningSkills = meaning ? entries.map((e) => ({ id: e.id, name: e.name, description: e.description, digest: e.digest })) : [];
  const list = (ranked: SearchResult, opts: RouteOptions, notes: string[] = []): Routed => ({
    ranked,
    listing: buildListing(listable, { mode: opts.mode, budgetChars: opts.budgetChars, ranking: ranked.hits.map((h) => byId.get(h.id)?.name ?? h.name) }),
    byId,
    notes,
  });
  const rank = async (request: string, recent?: string[]): Promise<{ ranked: SearchResult; notes: string[] }> => {
    const lexical = search(request, { limit: RANKED_KEEP, ...(recent?.length ? { recent } : {}) });
    if (!meaning) return { ranked: lexical, notes: [] };
    const h = await meaning.rank(request, lexical, meaningSkills);
    const notes = [
      ...(h.fallback ? [`the embeddings endpoint failed (${h.fallback}): ranked by words only until it answers again (tried again in ${Math.round((h.retryInMs ?? 0) / 1000)} s, then less often while it fails)`] : []),
      ...(h.recovered ? [`the embeddings endpoint answers again (${h.recovered}): ranked by words and meaning`] : []),
    ];
    return { ranked: h.ranking === "hybrid" ? h : lexical, notes };
  };
  const route = async (request: string, opts: RouteOptions): Promise<Routed> => {
    const { ranked, notes } = await rank(request, opts.recent);
    return list(ranked, opts, notes);
  };
  const find = async (request: string, limit: number) => {
    const { ranked, notes } = await rank(request);
    return { ranked: { ...ranked, hits: ranked.hits.slice(0, limit) }, notes };
  };
  return { route, list, search, find };
}
