// The one ranking of skills for a request (DESIGN.md "One ranking"): BM25F over the skill's name, description,
// headings, tags and the opening of its body (fielded.ts), with stemmed terms, synonyms at a lower weight, earlier
// turns at a lower weight, near spellings of words no skill has (typos), and a confidence (the share of the
// request's rare words the skill's own summary fields carry) that decides when to abstain. Every hit says in words
// which request words matched where. What was added on top of BM25F was kept only where it helped at 591 skills
// and did not hurt the 39-skill set (docs/search-tuning.md: "Tuning").
import { abstainReason, type AbstentionInput } from "./abstention";
import { analyzeDoc, type AnalyzedDoc, STRONG } from "./analyze";
import { FIELDS, type SearchDoc, type SearchField } from "./document";
import { FieldedIndex, type FieldParams } from "./fielded";
import { splitLead } from "./preamble";
import { nearSpellings } from "./spelling";
import { explain, type MatchedWord } from "./why";
import { expand } from "./synonyms";
import { terms, termsWithWords, wordOfStem } from "./text";

/** The knobs of the ranking, tuned on the tune parts of both request sets (docs/search-tuning.md: "Tuning"). */
export const TUNING = {
  /** Field weights (BM25F): a field's occurrences count this much. */
  boost: { name: 3, description: 2, headings: 1, tags: 2, body: 0.5 } as Record<SearchField, number>,
  /** Length normalisation per field (BM25F b). */
  b: { name: 0.3, description: 0.75, headings: 0.75, tags: 0.3, body: 0.75 } as Record<SearchField, number>,
  /** BM25 term-frequency saturation. */
  k1: 2,
  /** Weight of a synonym relative to the word the person typed. */
  synonym: 0.2,
  /** Weight of words from earlier turns of the conversation. */
  recent: 0.35,
  /** Weight of the words of a message's lead-in ("thanks, that worked. next thing on my list: ..."; preamble.ts); 1: read as the ask. */
  lead: 0.2,
  /** Weight of a near spelling of a typed word no skill has ("pyhton" for python). */
  spelling: 0.8,
  /** Bonus when every word of the skill's name is in the request ("use the webmcpify skill"). */
  name: 2,
  /** Weight of name words the typed word begins ("webmcp" finds "webmcpify"); only for words of 5+ letters. */
  prefix: 0.3,
  /**
   * Credit toward confidence of a word found only in the body (summary fields count 1). 0.3 with the threshold below
   * reaches the operating point on the tune parts of the first and third catalog sets (95.5% of served
   * requests answered, 81% of no-skill ones abstained on; 0.5 reaches 78% at best): a word a skill's body mentions
   * in passing says less than one its summary carries (docs/search-tuning.md: "Third pass").
   */
  bodyCredit: 0.3,
  /** How much the broader vocabulary's equivalents count beside the core groups' (vocabulary.ts); 0: off. */
  vocabulary: 1,
  /** Credit toward confidence of a word found only through a synonym in the summary fields. */
  synonymCredit: 0.5,
  /** How much confidence scales the score: score * (floor + confidence). */
  floor: 4,
};

/** The summary fields as a field mask (bit i: FIELDS[i]). */
const STRONG_MASK = STRONG.reduce((m, f) => m | (1 << FIELDS.indexOf(f)), 0);

/** A held skill: its analysed document (shared, read-only) and what it was built from (to skip unchanged re-adds). */
type Stored = AnalyzedDoc & { stamp: string };

export interface SearchOptions {
  /** Most hits returned (default 10). */
  limit?: number;
  /** Only these ids may be returned (the skills the caller may use after resolution). */
  only?: ReadonlySet<string>;
  /** Earlier user turns, most recent last; their words count at RECENT_WEIGHT. */
  recent?: string[];
  /** Decides abstention instead of the committed decision (the fitting script and the bench compare decisions). */
  decide?: (x: AbstentionInput) => string | undefined;
}

/** `matched` and `why` are getters (computed on first read): copy them explicitly when serializing. */
export interface SearchHit {
  id: string;
  name: string;
  description: string;
  score: number;
  /** 0..1: the share of the request's rare words found in the skill's name, description, headings or tags. */
  confidence: number;
  matched: MatchedWord[];
  why: string;
}

export interface SearchResult {
  hits: SearchHit[];
  /** No skill serves the request well enough (the hits are still given, weakest evidence). */
  abstain: boolean;
  /** Why it abstained, in words. */
  reason?: string;
  /** Skills searched. */
  searched: number;
}

/** Words of a request (and characters read) that take part in a search. */
export const MAX_TERMS = 64;
const MAX_REQUEST_CHARS = 4000;

const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;

interface QueryTerm {
  weight: number;
  word: string;
  as?: string;
  via?: MatchedWord["via"];
}

class Hit implements SearchHit {
  private m?: MatchedWord[];
  private w?: string;
  constructor(
    readonly id: string,
    readonly name: string,
    readonly description: string,
    readonly score: number,
    readonly confidence: number,
    private readonly namesSkill: boolean,
    private readonly masks: Int32Array,
    private readonly qterms: string[],
    private readonly query: Map<string, QueryTerm>,
  ) {}
  get matched(): MatchedWord[] {
    return (this.m ??= matchedWords(this.masks, this.qterms, this.query));
  }
  get why(): string {
    return (this.w ??= explain(this.matched, this.namesSkill, this.confidence));
  }
}

function matchedWords(masks: Int32Array, qterms: string[], query: Map<string, QueryTerm>): MatchedWord[] {
  const out: MatchedWord[] = [];
  for (let i = 0; i < masks.length; i++) {
    const mask = masks[i]!;
    if (!mask) continue;
    const term = qterms[i]!;
    const q = query.get(term)!;
    const fields = FIELDS.filter((_, i) => mask & (1 << i));
    out.push({ word: q.word, term, fields, ...(q.as ? { as: q.as } : {}), ...(q.via ? { via: q.via } : {}) });
  }
  return out;
}

export class SkillSearch {
  private index = new FieldedIndex(FIELDS.length);
  private docs = new Map<string, Stored>();
  /** Documents per summary-field stem: the words near spellings are read as. */
  private df = new Map<string, number>();
  /** Name stems (for prefix matches: compound names such as webmcpify). */
  private nameDf = new Map<string, number>();
  /** The name stems in code-unit order (prefix look-ups by binary search), made again after a change. */
  private namesSorted: string[] | undefined;

  /** A search over names and descriptions only, keyed by name (no registry at hand: a given list of skills). */
  static fromText(items: Iterable<{ name: string; description: string; tags?: string[] }>): SkillSearch {
    const search = new SkillSearch();
    for (const s of items) {
      search.upsert({ id: s.name, name: s.name, description: s.description, nameText: s.name.replace(/[-_.:]+/g, " "), headings: "", tags: (s.tags ?? []).join(" "), body: "" });
    }
    return search;
  }

  get size(): number {
    return this.docs.size;
  }

  has(id: string): boolean {
    return this.docs.has(id);
  }

  ids(): string[] {
    return [...this.docs.keys()];
  }

  /** Adds or replaces a skill. `stamp` (e.g. the SKILL.md digest) lets an unchanged re-add cost nothing. */
  upsert(doc: SearchDoc, stamp = ""): void {
    if (!this.holds(doc.id, stamp)) this.upsertAnalyzed(analyzeDoc(doc), stamp);
  }

  /** Whether the skill is held as made from `stamp` (an upsert with it would change nothing). */
  holds(id: string, stamp: string): boolean {
    return stamp !== "" && this.docs.get(id)?.stamp === stamp;
  }

  /** Adds or replaces a skill from its analysed document (analyze.ts: one analysis serves every search). */
  upsertAnalyzed(doc: AnalyzedDoc, stamp = ""): void {
    if (this.holds(doc.id, stamp)) return;
    if (this.docs.has(doc.id)) this.remove(doc.id);
    for (const t of doc.strong) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    for (const t of doc.nameField) this.nameDf.set(t, (this.nameDf.get(t) ?? 0) + 1);
    this.namesSorted = undefined;
    this.docs.set(doc.id, { ...doc, stamp });
    this.index.addCounts(doc.id, doc.counts);
  }

  remove(id: string): void {
    const prev = this.docs.get(id);
    if (!prev) return;
    const drop = (m: Map<string, number>, t: string) => {
      const n = (m.get(t) ?? 1) - 1;
      if (n > 0) m.set(t, n);
      else m.delete(t);
    };
    for (const t of prev.strong) drop(this.df, t);
    for (const t of prev.nameField) drop(this.nameDf, t);
    this.namesSorted = undefined;
    this.docs.delete(id);
    this.index.remove(id);
  }

  /** Name stems that begin with `prefix` (including itself). */
  private namesStartingWith(prefix: string): string[] {
    const names = (this.namesSorted ??= [...this.nameDf.keys()].sort());
    let lo = 0;
    let hi = names.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (names[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < names.length && names[i]!.startsWith(prefix); i++) out.push(names[i]!);
    return out;
  }

  /**
   * The request's terms with their weights: the ask's words, then synonyms, near spellings, prefixes, the lead-in's
   * words, earlier turns.
   */
  private queryOf(request: string, recent: string[] | undefined) {
    // A request is read up to MAX_TERMS words (a pasted document must not make one search cost seconds).
    const read = request.length > MAX_REQUEST_CHARS ? request.slice(0, MAX_REQUEST_CHARS) : request;
    const { lead, ask } = TUNING.lead < 1 ? splitLead(read) : { lead: "", ask: read };
    const own = termsWithWords(ask).slice(0, MAX_TERMS);
    const query = new Map<string, QueryTerm>();
    for (const { term, word } of own) if (!query.has(term)) query.set(term, { weight: 1, word });
    const ownTerms = own.map((o) => o.term);
    // Each request term's equivalents (a phrase's equivalents count for both its words).
    const equivalents = new Map<string, { term: string; credit: number }[]>();
    for (const x of expand(ownTerms)) {
      const strength = x.broad ? x.strength * TUNING.vocabulary : x.strength;
      if (strength <= 0) continue;
      const credit = Math.min(0.9, TUNING.synonymCredit * strength);
      for (const t of x.from.split(" ")) equivalents.set(t, [...(equivalents.get(t) ?? []), { term: x.term, credit }]);
      if (query.has(x.term) || TUNING.synonym <= 0) continue;
      const from = own.find((o) => o.term === x.from || x.from.endsWith(` ${o.term}`));
      query.set(x.term, { weight: Math.min(0.9, TUNING.synonym * strength), word: from?.word ?? x.from, as: x.word, via: "synonym" });
    }
    for (const { term, word } of own) {
      if (term.length < 5 || !/^[a-z]+$/.test(term)) continue;
      // A word no skill has is most likely mistyped: its near spellings that skills do have stand in for it.
      if (TUNING.spelling > 0 && !this.index.df(term)) {
        for (const near of nearSpellings(term, this.df.keys())) {
          if (!query.has(near)) query.set(near, { weight: TUNING.spelling, word, as: wordOfStem(near) ?? near, via: "spelling" });
          equivalents.set(term, [...(equivalents.get(term) ?? []), { term: near, credit: TUNING.spelling }]);
        }
      }
      if (TUNING.prefix > 0) for (const t of this.namesStartingWith(term)) if (t.length > term.length && !query.has(t)) query.set(t, { weight: TUNING.prefix, word, via: "prefix" });
    }
    for (const { term, word } of termsWithWords(lead).slice(0, MAX_TERMS / 2)) {
      if (!query.has(term)) query.set(term, { weight: TUNING.lead, word, via: "lead-in" });
    }
    for (const turn of (recent ?? []).slice(-3)) {
      for (const { term, word } of termsWithWords(turn.slice(0, MAX_REQUEST_CHARS)).slice(0, MAX_TERMS / 2)) {
        if (!query.has(term)) query.set(term, { weight: TUNING.recent, word, via: "earlier turn" });
      }
    }
    return { own, ownTerms, query, equivalents };
  }

  search(request: string, opts: SearchOptions = {}): SearchResult {
    const limit = Math.max(1, Math.floor(opts.limit ?? 10));
    const only = opts.only;
    const searched = only ? [...only].filter((id) => this.docs.has(id)).length : this.docs.size;
    const { ownTerms, query, equivalents } = this.queryOf(request, opts.recent);
    if (!query.size || !searched) return { hits: [], abstain: true, reason: query.size ? "there are no skills to search" : "the request has no searchable words", searched };

    const params: FieldParams[] = FIELDS.map((f) => ({ weight: TUNING.boost[f], b: TUNING.b[f] }));
    // Query terms are numbered: where each matched in a document is an array slot, not a map entry (a request with
    // common words touches most documents, and every touched one is weighed below).
    const qterms = [...query.keys()];
    const slot = new Map(qterms.map((t, i) => [t, i]));
    const acc = new Map<string, { bm25: number; masks: Int32Array }>();
    qterms.forEach((term, i) => {
      const weight = query.get(term)!.weight;
      this.index.score(term, params, TUNING.k1, only, (id, score, fields) => {
        let a = acc.get(id);
        if (!a) acc.set(id, (a = { bm25: 0, masks: new Int32Array(qterms.length) }));
        a.bm25 += weight * score;
        a.masks[i] = fields;
      });
    });

    const uniqueOwn = [...new Set(ownTerms)];
    const ownSet = new Set(uniqueOwn);
    // Per request word: its IDF over every field, its equivalents (computed once per request, used for every document).
    const at = (t: string) => slot.get(t) ?? -1;
    const wanted = uniqueOwn.map((t) => ({ t, i: at(t), idf: this.index.idf(t), eq: (equivalents.get(t) ?? []).map((x) => ({ i: at(x.term), credit: x.credit })) }));
    const ownIdf = wanted.reduce((a, o) => a + o.idf, 0) || 1;
    const scored = [...acc].map(([id, a]) => {
      const doc = this.docs.get(id)!;
      // Where each request term matched is in `a.masks` (a field mask per query term): no per-document look-ups.
      const masks = a.masks;
      const strongly = (i: number) => i >= 0 && (masks[i]! & STRONG_MASK) !== 0;
      let evidence = 0;
      for (const o of wanted) {
        if (strongly(o.i)) evidence += o.idf;
        else {
          // The best credit among equivalents found in the summary fields (a near-identity synonym counts more).
          let credit = o.i >= 0 && masks[o.i] ? TUNING.bodyCredit : 0;
          for (const x of o.eq) if (x.credit > credit && strongly(x.i)) credit = x.credit;
          evidence += credit * o.idf;
        }
      }
      const confidence = Math.min(1, evidence / ownIdf);
      let namesSkill = doc.nameTerms.length > 0;
      for (const t of doc.nameTerms) if (!ownSet.has(t)) namesSkill = false;
      const score = (a.bm25 + (namesSkill ? TUNING.name : 0)) * (TUNING.floor + confidence);
      return { doc, score, confidence, evidence, masks, namesSkill };
    });
    scored.sort((a, b) => b.score - a.score || (a.doc.name < b.doc.name ? -1 : a.doc.name > b.doc.name ? 1 : 0));

    // Explanations are built when read (getters): a listing ranks hundreds of hits and shows the words of a few.
    const hits: SearchHit[] = scored.slice(0, limit).map(
      (s) => new Hit(s.doc.id, s.doc.name, s.doc.description, round(s.score), round(s.confidence), s.namesSkill, s.masks, qterms, query),
    );
    const best = scored[0];
    const next = scored[1];
    const reason = best
      ? (opts.decide ?? abstainReason)({
          searched,
          best: best.doc.name,
          ...(next ? { next: next.doc.name } : {}),
          confidence: best.confidence,
          evidence: best.evidence,
          score: best.score,
          nextScore: next?.score ?? 0,
          words: wanted.map((o) => ({ idf: o.idf, df: this.index.df(o.t), found: best.masks[o.i]! & STRONG_MASK ? "summary" : best.masks[o.i] ? "body" : "none" })),
        })
      : "no skill's text contains any word of the request";
    return { hits, abstain: reason !== undefined, ...(reason ? { reason } : {}), searched };
  }
}
