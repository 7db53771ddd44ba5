// Stage 1: the `<available_skills>` listing, held to a character budget. Over budget, descriptions are
// shortened (least relevant to the request first) before any skill is dropped, and the listing itself
// says how many were shortened or left out: the model is never silently missing skills.
import { estimateTokens } from "../skill/tokens";
import { relevance } from "./relevance";
import type { DisclosureMode, ListingInfo } from "./types";

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
}

/** Descriptions are shortened in two rounds: to SHORT_CHARS, then to MIN_CHARS; only then are skills left out. */
const SHORT_CHARS = 120;
const MIN_CHARS = 40;

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return (space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, "") + "…";
}

function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function line(mode: DisclosureMode, s: ListingSkill, description: string): string {
  if (mode === "tool") return `"${s.name}": ${description}`;
  const loc = mode === "prompt" ? `\n<location>${escapeXml(s.location)}</location>` : "";
  return `<skill>\n<name>${escapeXml(s.name)}</name>\n<description>${escapeXml(description)}</description>${loc}\n</skill>`;
}

function note(shortened: number, omitted: number, budget: number): string {
  if (!shortened && !omitted) return "";
  const parts: string[] = [];
  if (shortened) parts.push(`${shortened} description${shortened === 1 ? " was" : "s were"} shortened`);
  if (omitted) parts.push(`${omitted} skill${omitted === 1 ? " was" : "s were"} left out`);
  return `(${parts.join(" and ")} to fit the listing budget of ${budget} characters${omitted ? "; a skill left out can still be used by its exact name" : ""}.)`;
}

function render(mode: DisclosureMode, items: { skill: ListingSkill; description: string }[], footer: string): string {
  const sep = mode === "tool" ? "\n\n" : "\n";
  const body = items.map((i) => line(mode, i.skill, i.description)).join(sep);
  return `<available_skills>\n${body}${body ? "\n" : ""}${footer ? footer + "\n" : ""}</available_skills>`;
}

export interface ListingOptions {
  mode: DisclosureMode;
  budgetChars: number;
  /** When known, the least relevant descriptions are shortened and dropped first. */
  request?: string;
}

export function buildListing(skills: ListingSkill[], opts: ListingOptions): ListingInfo & { skills: ListingSkill[] } {
  const budget = Math.max(0, Math.floor(opts.budgetChars));
  const sorted = [...skills].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // Cut order: least relevant first; ties (or no request) from the end of the alphabet, so the order is stable.
  const score = new Map(sorted.map((s) => [s.name, opts.request ? relevance(opts.request, s).score : 0]));
  const cutOrder = [...sorted].sort((a, b) => score.get(a.name)! - score.get(b.name)! || (a.name < b.name ? 1 : -1));

  const desc = new Map(sorted.map((s) => [s.name, s.description.replace(/\s+/g, " ").trim()]));
  const shortenedNames = new Set<string>();
  const omitted = new Set<string>();
  // Lengths are kept arithmetically so a registry of thousands of skills is not re-rendered per change.
  const sepLen = opts.mode === "tool" ? 2 : 1;
  const lineLen = new Map(sorted.map((s) => [s.name, line(opts.mode, s, desc.get(s.name)!).length]));
  let linesTotal = [...lineLen.values()].reduce((a, b) => a + b, 0);
  let shortenedCount = 0; // shortened and still listed
  const shortenedListed = () => shortenedCount;
  const length = () => {
    const listedCount = sorted.length - omitted.size;
    const body = linesTotal + Math.max(0, listedCount - 1) * sepLen + (listedCount ? 1 : 0);
    const foot = note(shortenedListed(), omitted.size, budget);
    return "<available_skills>\n".length + body + (foot ? foot.length + 1 : 0) + "</available_skills>".length;
  };

  for (const max of [SHORT_CHARS, MIN_CHARS]) {
    for (const s of cutOrder) {
      if (length() <= budget) break;
      const d = desc.get(s.name)!;
      if (d.length <= max) continue;
      desc.set(s.name, shorten(d, max));
      if (!shortenedNames.has(s.name)) shortenedCount++;
      shortenedNames.add(s.name);
      const len = line(opts.mode, s, desc.get(s.name)!).length;
      linesTotal += len - lineLen.get(s.name)!;
      lineLen.set(s.name, len);
    }
  }
  for (const s of cutOrder) {
    if (length() <= budget) break;
    omitted.add(s.name);
    if (shortenedNames.has(s.name)) shortenedCount--;
    linesTotal -= lineLen.get(s.name)!;
  }
  const items = sorted.filter((s) => !omitted.has(s.name)).map((s) => ({ skill: s, description: desc.get(s.name)! }));
  const current = render(opts.mode, items, note(shortenedListed(), omitted.size, budget));
  const listed = sorted.filter((s) => !omitted.has(s.name));
  return {
    text: current,
    chars: current.length,
    tokens: estimateTokens(current),
    budgetChars: budget,
    total: sorted.length,
    listed: listed.length,
    shortened: shortenedListed(),
    omitted: omitted.size,
    omittedNames: sorted.filter((s) => omitted.has(s.name)).map((s) => s.name),
    skills: listed,
  };
}
