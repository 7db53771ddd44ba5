// The baseline of issue 36 that cannot be tuned: "a careful lexical ranker (fielded BM25, Snowball stems,
// name/description/headings/first 3,000 chars of body)". Its settings are the textbook ones, fixed before it was first
// measured and never changed after: BM25F (fielded.ts), k1 1.2, b 0.75 in every field, field weights name 3,
// description 2, headings 1, body 1; the typed words only (no synonyms, spellings, pairs, name bonus or
// confidence) and it never abstains. Stems: our Porter stemmer (text.ts); no Snowball/Porter2 package is installed
// and the README's comparison found the two within a request of each other.
import { docFor, readBody } from "../../../server/runtime/search/document";
import { FieldedIndex, type FieldParams } from "../../../server/runtime/search/fielded";
import { terms } from "../../../server/runtime/search/text";
import type { SkillEntry } from "../../../server/runtime/registry/types";

const FIELDS: FieldParams[] = [
  { weight: 3, b: 0.75 }, // name (and folder name) as words
  { weight: 2, b: 0.75 }, // description
  { weight: 1, b: 0.75 }, // headings
  { weight: 1, b: 0.75 }, // body, first 3,000 characters (document.ts)
];
const K1 = 1.2;

export class CarefulBm25 {
  private index = new FieldedIndex(FIELDS.length);
  private dirs = new Map<string, { dir: string; name: string }>();

  constructor(entries: SkillEntry[]) {
    for (const e of entries) {
      if (!e.loadable) continue;
      const d = docFor(e, readBody(e.file));
      this.index.add(e.id, [terms(d.nameText), terms(d.description), terms(d.headings), terms(d.body)]);
      this.dirs.set(e.id, { dir: e.dir, name: e.name });
    }
  }

  /** Skill folders best first (ties by name), at most `limit`. */
  rank(request: string, limit = 10): string[] {
    const score = new Map<string, number>();
    for (const t of new Set(terms(request))) {
      this.index.score(t, FIELDS, K1, undefined, (id, s) => score.set(id, (score.get(id) ?? 0) + s));
    }
    return [...score]
      .map(([id, s]) => ({ s, ...this.dirs.get(id)! }))
      .sort((a, b) => b.s - a.s || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .slice(0, limit)
      .map((x) => x.dir);
  }
}
