// A better description without a model (#41 item 10): the distinctive words of the queries that should fire the
// skill and do not, which the skill's own text supports, added to the description; the words its text does not
// have are left for a person or a model to judge (the skill may not be meant for them). Judged, like a model's
// proposal, by running the set with the one ranking (./suggest.ts), so only what ranks better is offered.
import { terms, termsWithWords } from "../search/text";
import { FORMAT_LIMITS } from "../../domain/vocabulary";

/** Words added per proposal at most: a description is a sentence, not a keyword list. */
export const MAX_ADDED_WORDS = 6;

export interface WordsProposal {
  /** The new description, or null when no failing query has a word the skill's text supports and the description lacks. */
  description: string | null;
  added: string[];
  /** Words of failing queries the skill's text does not have, most frequent first. */
  unsupported: string[];
}

interface Counted {
  word: string;
  queries: number;
  first: number;
}

const byUse = (a: Counted, b: Counted) => b.queries - a.queries || a.first - b.first;

/** Joined as a person writes a list: "a", "a and b", "a, b and c". */
export function listed(words: readonly string[]): string {
  return words.length < 2 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/**
 * `skillText`: what the skill says about itself (name, body, tags). `misses`: the queries that should fire the
 * skill and did not. Linear in their sizes.
 */
export function wordsProposal(description: string, skillText: string, misses: readonly string[]): WordsProposal {
  const has = new Set(terms(description));
  const supported = new Set(terms(skillText));
  const counts = new Map<string, Counted>();
  let n = 0;
  for (const query of misses) {
    const seen = new Set<string>();
    for (const { term, word } of termsWithWords(query)) {
      if (has.has(term) || seen.has(term) || /^\d+$/.test(word)) continue;
      seen.add(term);
      const c = counts.get(term) ?? { word: word.toLowerCase(), queries: 0, first: n++ };
      c.queries++;
      counts.set(term, c);
    }
  }
  const ranked = [...counts.entries()].sort((a, b) => byUse(a[1], b[1]));
  const unsupported = ranked.filter(([t]) => !supported.has(t)).map(([, c]) => c.word);
  const added: string[] = [];
  let text: string | null = null;
  for (const [t, c] of ranked) {
    if (!supported.has(t) || added.length >= MAX_ADDED_WORDS) continue;
    const next = `${description.trim().replace(/[.!?]?$/, ".")} Also for requests about ${listed([...added, c.word])}.`;
    if (next.length > FORMAT_LIMITS.descriptionChars) break;
    added.push(c.word);
    text = next;
  }
  return { description: text, added, unsupported };
}
