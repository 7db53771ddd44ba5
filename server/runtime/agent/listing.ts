// Stage 1: the `<available_skills>` listing, held to a character budget (DESIGN.md "Listing under budget").
// When every skill fits (descriptions shortened at most to SHORT_CHARS, least relevant first), the listing is
// the whole catalog in name order, as it always was. When it does not, the listing is request-ranked: the skills
// the one ranking puts first for this request get descriptions, then further skills by name while the budget
// lasts, and one closing line says how many are not listed and that the search tool finds them. Never silent:
// the result says which skills were listed with a description, by name only, shortened and left out, and why.
import { estimateTokens } from "../skill/tokens";
import { SkillSearch } from "../search/engine";
import type { ChatMessage, DisclosureMode, ListingInfo } from "./types";
import { count, plural } from "../../domain/plural";

/** Characters per token assumed for the default budget (English text in common tokenizers is ~4). */
export const CHARS_PER_TOKEN = 4;

/**
 * Default budget: 1% of the model's context window, in characters (contextTokens * 4 chars/token / 100).
 * A 200k-token model gets 8,000 characters, in the order of Claude Code's skill-listing budget.
 */
export function listingBudgetFor(contextTokens: number): number {
  const tokens = Number.isFinite(contextTokens) && contextTokens > 0 ? contextTokens : 200_000;
  return Math.max(1000, Math.round((tokens * CHARS_PER_TOKEN) / 100));
}

export interface ListingSkill {
  name: string;
  description: string;
  /** Absolute SKILL.md path (shown in prompt mode). */
  location: string;
  /** Frontmatter tags: shown when the whole catalog fits with them (tagsLine), and ranked by rankByText. */
  tags?: string[];
}

/** The whole catalog is listed when every description fits at this length or longer. */
export const SHORT_CHARS = 120;
/** Request-ranked listing: description length by rank (best first), then DESC_CHARS for the rest. */
const RANK_CHARS = [300, 300, 300, 200, 200, 200, 200, 200, 200, 200];
const DESC_CHARS = 140;
/** Share of the budget descriptions may take in a request-ranked listing; the rest goes to names. */
const DESCRIBED_SHARE = 0.85;
/** The search tool each mode offers (named in the closing line). */
export const SEARCH_TOOL: Record<DisclosureMode, string> = { tool: "skill_search", prompt: "skill_search", orchestrated: "skills.search" };

/** The description on one line (most already are: the regex runs only when needed). */
function flat(text: string): string {
  return /\s\s|[\t\n\r]/.test(text) ? text.replace(/\s+/g, " ").trim() : text.trim();
}

function shorten(text: string, max: number): string {
  const flat_ = flat(text);
  if (flat_.length <= max) return flat_;
  return cut(flat_, max);
}

function cut(flat: string, max: number): string {
  const head = flat.slice(0, max - 1);
  const space = head.lastIndexOf(" ");
  return (space > max / 2 ? head.slice(0, space) : head).replace(/[\s,.;:]+$/, "") + "…";
}

function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** One skill's line; `description` null lists the name only; `withTags` adds its tags (when it has any). */
function line(mode: DisclosureMode, s: ListingSkill, description: string | null, withTags = false): string {
  const tags = withTags && s.tags?.length ? s.tags.join(", ") : "";
  if (mode === "tool") return (description === null ? `"${s.name}"` : `"${s.name}": ${description}`) + (tags ? ` [tags: ${tags}]` : "");
  const desc = description === null ? "" : `\n<description>${escapeXml(description)}</description>`;
  const tagLine = tags ? `\n<tags>${escapeXml(tags)}</tags>` : "";
  const loc = mode === "prompt" ? `\n<location>${escapeXml(s.location)}</location>` : "";
  return `<skill>\n<name>${escapeXml(s.name)}</name>${desc}${tagLine}${loc}\n</skill>`;
}

function note(shortened: number, budget: number): string {
  return shortened ? `(${count(shortened, "description")} ${plural(shortened, "was", "were")} shortened to fit the listing budget of ${budget} characters.)` : "";
}

/** The closing line of a request-ranked listing. */
export function omittedLine(mode: DisclosureMode, omitted: number, nameOnly: number, ranked = true): string {
  const head = ranked ? `Skills ranked for this request${nameOnly ? `; the last ${nameOnly} listed by name only` : ""}` : "Skills listed by name only";
  const rest = omitted
    ? `${count(omitted, "more skill")} ${plural(omitted, "is", "are")} not listed: call ${SEARCH_TOOL[mode]} with what you need to find any skill`
    : `call ${SEARCH_TOOL[mode]} with what you need to find a skill by what it does`;
  return `(${head}. ${rest}.)`;
}

function render(mode: DisclosureMode, lines: string[], footer: string): string {
  const sep = mode === "tool" ? "\n\n" : "\n";
  const body = lines.join(sep);
  return `<available_skills>\n${body}${body ? "\n" : ""}${footer ? footer + "\n" : ""}</available_skills>`;
}

const OPEN = "<available_skills>\n".length;
const CLOSE = "</available_skills>".length;

export interface ListingOptions {
  mode: DisclosureMode;
  budgetChars: number;
  /** The request (and recent turns are in `recent`): the skills are ranked with the one ranking when no `ranking` is given. */
  request?: string;
  recent?: string[];
  /** Skill names best first, as the caller ranked them (the names not in it rank after, in name order). */
  ranking?: string[];
}

export type Listing = ListingInfo & { skills: ListingSkill[] };

/** `tokens` is counted on first read: loading the tokenizer costs more than a batch of listings (CLI, bench). */
function withTokens(l: Omit<Listing, "tokens">): Listing {
  let n: number | undefined;
  return Object.defineProperty(l, "tokens", { enumerable: true, configurable: true, get: () => (n ??= estimateTokens(l.text)) }) as Listing;
}

/** The ranking of the listed skills for a request, from their names and descriptions only (no index at hand). */
export function rankByText(skills: ListingSkill[], request: string, recent?: string[]): string[] {
  return SkillSearch.fromText(skills)
    .search(request, { limit: skills.length, ...(recent ? { recent } : {}) })
    .hits.map((h) => h.name);
}

export function buildListing(skills: ListingSkill[], opts: ListingOptions): Listing {
  const budget = Math.max(0, Math.floor(opts.budgetChars));
  const sorted = [...skills].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const ranking = opts.ranking ?? (opts.request?.trim() ? rankByText(sorted, opts.request, opts.recent) : []);
  const known = new Set(sorted.map((s) => s.name));
  const rankOf = new Map<string, number>();
  for (const n of ranking) if (known.has(n) && !rankOf.has(n)) rankOf.set(n, rankOf.size);
  return fitsWhole(sorted, rankOf, opts.mode, budget) ?? ranked(sorted, rankOf, opts.mode, budget);
}

/** Today's listing: every skill in name order, descriptions shortened (least relevant first) no further than SHORT_CHARS. */
function fitsWhole(sorted: ListingSkill[], rankOf: Map<string, number>, mode: DisclosureMode, budget: number): Listing | null {
  const sepLen = mode === "tool" ? 2 : 1;
  // A lower bound first (every description at its shortest, no markup): a big catalog is rejected in O(n) arithmetic.
  let least = OPEN + CLOSE;
  for (const s of sorted) {
    least += s.name.length + (s.description.length < SHORT_CHARS ? flat(s.description).length : SHORT_CHARS) + sepLen + 3;
    if (least > budget) return null;
  }
  const desc = new Map(sorted.map((s) => [s.name, flat(s.description)]));
  const lineLen = new Map(sorted.map((s) => [s.name, line(mode, s, desc.get(s.name)!).length]));
  let linesTotal = [...lineLen.values()].reduce((a, b) => a + b, 0);
  const shortened = new Set<string>();
  // Lengths are kept arithmetically so a registry of thousands of skills is not re-rendered per change.
  const length = () => {
    const body = linesTotal + Math.max(0, sorted.length - 1) * sepLen + (sorted.length ? 1 : 0);
    const foot = note(shortened.size, budget);
    return OPEN + body + (foot ? foot.length + 1 : 0) + CLOSE;
  };
  // Least relevant first: skills the ranking did not place, from the end of the alphabet; then the ranked from the worst.
  const cutOrder = [...sorted].sort((a, b) => (rankOf.get(b.name) ?? Infinity) - (rankOf.get(a.name) ?? Infinity) || (a.name < b.name ? 1 : -1));
  for (const s of cutOrder) {
    if (length() <= budget) break;
    const d = desc.get(s.name)!;
    if (d.length <= SHORT_CHARS) continue;
    desc.set(s.name, shorten(d, SHORT_CHARS));
    shortened.add(s.name);
    const len = line(mode, s, desc.get(s.name)!).length;
    linesTotal += len - lineLen.get(s.name)!;
    lineLen.set(s.name, len);
  }
  if (length() > budget) return null;
  let text = render(mode, sorted.map((s) => line(mode, s, desc.get(s.name)!)), note(shortened.size, budget));
  // Tags only where the budget allows: every description whole, and the tagged listing still within budget.
  // They are extra words for choosing, never worth shortening a description for.
  let tagged = false;
  if (shortened.size === 0 && sorted.some((s) => s.tags?.length)) {
    const withTags = render(mode, sorted.map((s) => line(mode, s, desc.get(s.name)!, true)), "");
    if (withTags.length <= budget) {
      text = withTags;
      tagged = true;
    }
  }
  const names = sorted.map((s) => s.name);
  return withTokens({
    text,
    chars: text.length,
    budgetChars: budget,
    total: sorted.length,
    listed: sorted.length,
    shortened: shortened.size,
    omitted: 0,
    omittedNames: [],
    strategy: "all",
    described: names,
    nameOnly: [],
    shortenedNames: names.filter((n) => shortened.has(n)),
    why: shortened.size
      ? `All ${count(sorted.length, "skill")} fit the budget of ${budget} characters once ${count(shortened.size, "description")} ${plural(shortened.size, "was", "were")} shortened (least relevant to the request first).`
      : `All ${count(sorted.length, "skill")} fit the budget of ${budget} characters with their full descriptions${tagged ? " and tags" : ""}.`,
    skills: sorted,
  });
}

/** The request-ranked listing: described skills best first, then names, then the closing line; always within budget. */
function ranked(sorted: ListingSkill[], rankOf: Map<string, number>, mode: DisclosureMode, budget: number): Listing {
  const order = [...sorted].sort((a, b) => (rankOf.get(a.name) ?? Infinity) - (rankOf.get(b.name) ?? Infinity) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const sepLen = mode === "tool" ? 2 : 1;
  // The closing line is reserved at its longest (every count at the catalog's size), so adding a line never overflows it.
  const reserve = omittedLine(mode, sorted.length, sorted.length, true).length + 1;
  const room = budget - OPEN - CLOSE - reserve;
  const lines: string[] = [];
  const described: string[] = [];
  const nameOnly: string[] = [];
  const shortenedNames: string[] = [];
  // `used` is the body's length: lines, separators and the newline after the last line.
  let used = 0;
  const cost = (l: string) => (lines.length ? sepLen : 1) + l.length;
  const fits = (l: string, limit: number) => used + cost(l) <= limit;
  const push = (l: string) => {
    used += cost(l);
    lines.push(l);
  };
  let i = 0;
  // Descriptions for the ranked skills, best first, while the described share of the budget lasts.
  for (; i < order.length; i++) {
    const s = order[i]!;
    if (!rankOf.has(s.name)) break;
    const full = flat(s.description);
    const max = RANK_CHARS[i] ?? DESC_CHARS;
    let d = shorten(full, max);
    let l = line(mode, s, d);
    if (!fits(l, room * DESCRIBED_SHARE)) {
      if (i > 0) break;
      // The best match always keeps a description: as much of it as the whole room allows.
      const over = used + cost(l) - room;
      d = shorten(full, Math.max(20, d.length - over - 1));
      l = line(mode, s, d);
      if (!fits(l, room)) break;
    }
    push(l);
    described.push(s.name);
    if (d !== full) shortenedNames.push(s.name);
  }
  // Then names, in rank order, while the budget lasts.
  for (; i < order.length; i++) {
    const l = line(mode, order[i]!, null);
    if (!fits(l, room)) break;
    push(l);
    nameOnly.push(order[i]!.name);
  }
  const listedSet = new Set([...described, ...nameOnly]);
  const omittedNames = sorted.filter((s) => !listedSet.has(s.name)).map((s) => s.name);
  const footer = omittedLine(mode, omittedNames.length, nameOnly.length, described.length > 0);
  let text = render(mode, lines, footer);
  // A budget too small for even the closing line (under ~200 characters) lists nothing.
  if (text.length > budget) text = render(mode, [], "").length <= budget ? render(mode, [], "") : "";
  const why =
    `The ${sorted.length} skills do not fit the budget of ${budget} characters, so the listing is ranked for the request: ` +
    `${described.length} best-ranked with descriptions${shortenedNames.length ? ` (${shortenedNames.length} shortened)` : ""}, ` +
    `${nameOnly.length} more by name only, ${omittedNames.length} left out (found with ${SEARCH_TOOL[mode]}).`;
  const listed = order.filter((s) => listedSet.has(s.name));
  return withTokens({
    text,
    chars: text.length,
    budgetChars: budget,
    total: sorted.length,
    listed: listed.length,
    shortened: shortenedNames.length,
    omitted: omittedNames.length,
    omittedNames,
    strategy: "ranked",
    described,
    nameOnly,
    shortenedNames,
    why,
    skills: listed,
  });
}

/** No listing, and why: a fork sub-agent (its skill is its instructions), or skills turned off. */
export function emptyListing(why: string): Listing {
  return { text: "", chars: 0, tokens: 0, budgetChars: 0, total: 0, listed: 0, shortened: 0, omitted: 0, omittedNames: [], strategy: "all", described: [], nameOnly: [], shortenedNames: [], why, skills: [] };
}

/** The user's earlier requests, most recent last (the listing ranks for them too, at a lower weight). */
export function recentRequests(history: ChatMessage[] | undefined, n = 2): string[] {
  return (history ?? []).filter((m) => m.role === "user").slice(-n).map((m) => (m as { content: string }).content);
}

/** The listing as events carry it (without the skill objects). */
export function listingInfo(l: ListingInfo): ListingInfo {
  const { text, chars, tokens, budgetChars, total, listed, shortened, omitted, omittedNames, strategy, described, nameOnly, shortenedNames, why } = l;
  return { text, chars, tokens, budgetChars, total, listed, shortened, omitted, omittedNames, strategy, described, nameOnly, shortenedNames, why };
}
