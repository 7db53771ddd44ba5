// The one ranking of skills for a request (DESIGN.md "One ranking"). minisearch holds the inverted index and
// scores each field with BM25; on top of it this file adds what measurement showed to help on real requests:
// stemmed terms, synonyms at a lower weight, earlier turns at a lower weight, a bonus for request word pairs
// that appear as a pair in the skill's name, description or headings, a bonus when the request names the skill,
// and a confidence (the share of the request's rare words the skill's own summary fields carry) that decides
// when to abstain. Every hit says in words which request words matched where.
import MiniSearch from "minisearch";
import { FIELDS, type SearchDoc, type SearchField } from "./document";
import { expand } from "./synonyms";
import { terms, termsWithWords } from "./text";

/** The knobs of the ranking, tuned on the request set's tune split (README: "Tuning"). */
export const TUNING = {
  /** Field weights: BM25 scores per field are multiplied by these. */
  boost: { name: 3, description: 2, headings: 1.5, tags: 2, body: 0.5 } as Record<SearchField, number>,
  /** Weight of a synonym relative to the word the person typed. */
  synonym: 0.4,
  /** Weight of words from earlier turns of the conversation. */
  recent: 0.35,
  /** Bonus per request word pair found as a pair in the summary fields, times the pair's mean IDF. */
  phrase: 1.5,
  /** Bonus when every word of the skill's name is in the request ("use the webmcpify skill"). */
  name: 6,
  /** Weight of prefix matches (request "webmcp" finds "webmcpify"); only for words of 5+ letters. */
  prefix: 0.3,
  /** Credit toward confidence of a word found only in the body (summary fields count 1). */
  bodyCredit: 0.5,
  /** Credit toward confidence of a word found only through a synonym in the summary fields. */
  synonymCredit: 0.5,
  /** How much confidence scales the score: score * (floor + confidence). */
  floor: 0.5,
  /** Below this confidence the best match is not good enough: the search abstains. */
  minConfidence: 0.2,
  /**
   * Below this evidence the best match shares only common words with the request ("help", "make something"):
   * the summed IDF of the request words it carries, over the IDF of a word no skill has (so catalogs of any size
   * compare).
   */
  minEvidence: 0.45,
};

const MS_FIELD: Record<SearchField, keyof SearchDoc> = { name: "nameText", description: "description", headings: "headings", tags: "tags", body: "body" };
const FIELD_OF = new Map(FIELDS.map((f) => [MS_FIELD[f] as string, f]));
const STRONG: SearchField[] = ["name", "description", "headings", "tags"];

interface Stored {
  id: string;
  name: string;
  description: string;
  /** Stems of the skill name. */
  nameTerms: string[];
  /** Distinct stems of the summary fields (name, description, headings, tags). */
  strong: Set<string>;
  /** Adjacent stem pairs of the summary fields ("tail latenc"). */
  pairs: Set<string>;
  /** What the document was built from (to skip unchanged re-adds). */
  stamp: string;
}

export interface SearchOptions {
  /** Most hits returned (default 10). */
  limit?: number;
  /** Only these ids may be returned (the skills the caller may use after resolution). */
  only?: ReadonlySet<string>;
  /** Earlier user turns, most recent last; their words count at RECENT_WEIGHT. */
  recent?: string[];
}

export interface MatchedWord {
  /** The word as the person typed it (for a synonym: the typed word it stands for). */
  word: string;
  /** For a synonym: the equivalent word that matched ("slides" matched as "pptx"). */
  as?: string;
  /** The skill's term it matched (differs from the word's stem for synonyms and prefixes). */
  term: string;
  fields: SearchField[];
  via?: "synonym" | "earlier turn" | "prefix";
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
  /** Request word pairs found as pairs in the summary fields. */
  phrases: string[];
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

class Hit implements SearchHit {
  private m?: MatchedWord[];
  private w?: string;
  constructor(
    readonly id: string,
    readonly name: string,
    readonly description: string,
    readonly score: number,
    readonly confidence: number,
    readonly phrases: string[],
    private readonly namesSkill: boolean,
    private readonly match: Record<string, string[]>,
    private readonly explainer: (m: Record<string, string[]>) => MatchedWord[],
  ) {}
  get matched(): MatchedWord[] {
    return (this.m ??= this.explainer(this.match));
  }
  get why(): string {
    return (this.w ??= explain(this.matched, this.phrases, this.namesSkill, this.confidence));
  }
}

export class SkillSearch {
  private ms: MiniSearch<SearchDoc>;
  private docs = new Map<string, Stored>();
  /** Documents per summary-field stem, for the IDF behind confidence and phrase bonuses. */
  private df = new Map<string, number>();
  /** The summary fields' terms of the document being added (computed once for pairs and the index). */
  private tokenized: Map<string, string[]> | null = null;

  constructor() {
    this.ms = new MiniSearch<SearchDoc>({
      idField: "id",
      fields: FIELDS.map((f) => MS_FIELD[f]),
      // The body counts each term once: term frequency adds little in a low-weight field (measured), and a body's
      // repeated words were most of the indexing time.
      tokenize: (text, field) => this.tokenized?.get(field!) ?? (field === "body" ? [...new Set(terms(text))] : terms(text)),
      processTerm: (t) => t,
      searchOptions: { tokenize: (q) => q.split(" ").filter(Boolean), processTerm: (t) => t },
    });
  }

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
    const prev = this.docs.get(doc.id);
    if (prev && stamp && prev.stamp === stamp) return;
    if (prev) this.remove(doc.id);
    const tokenized = new Map<string, string[]>();
    const pairs = new Set<string>();
    for (const f of STRONG) {
      const lines = String(doc[MS_FIELD[f]]).split("\n").map(terms);
      for (const s of lines) for (let i = 0; i + 1 < s.length; i++) pairs.add(`${s[i]} ${s[i + 1]}`);
      tokenized.set(MS_FIELD[f], lines.flat());
    }
    const strong = new Set([...tokenized.values()].flat());
    for (const t of strong) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    this.docs.set(doc.id, { id: doc.id, name: doc.name, description: doc.description, nameTerms: terms(doc.name.replace(/[-_.]+/g, " ")), strong, pairs, stamp });
    this.tokenized = tokenized;
    try {
      this.ms.add(doc);
    } finally {
      this.tokenized = null;
    }
  }

  remove(id: string): void {
    const prev = this.docs.get(id);
    if (!prev) return;
    for (const t of prev.strong) {
      const n = (this.df.get(t) ?? 1) - 1;
      if (n > 0) this.df.set(t, n);
      else this.df.delete(t);
    }
    this.docs.delete(id);
    this.ms.discard(id);
  }

  /** IDF of a stem over the summary fields: how much finding it there says. */
  private idf(term: string): number {
    const n = this.docs.size || 1;
    const df = this.df.get(term) ?? 0;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  search(request: string, opts: SearchOptions = {}): SearchResult {
    const limit = Math.max(1, Math.floor(opts.limit ?? 10));
    const only = opts.only;
    const searched = only ? [...only].filter((id) => this.docs.has(id)).length : this.docs.size;
    // A request is read up to MAX_TERMS words (a pasted document must not make one search cost seconds).
    const own = termsWithWords(request.length > MAX_REQUEST_CHARS ? request.slice(0, MAX_REQUEST_CHARS) : request).slice(0, MAX_TERMS);
    // The request's own terms (first spelling wins for explanations), then synonyms, then earlier turns.
    const weight = new Map<string, number>();
    const wordOf = new Map<string, { word: string; as?: string; via?: MatchedWord["via"] }>();
    for (const { term, word } of own) {
      if (!weight.has(term)) {
        weight.set(term, 1);
        wordOf.set(term, { word });
      }
    }
    const ownTerms = own.map((o) => o.term);
    // Each request term's equivalents (a phrase's equivalents count for both its words).
    const equivalents = new Map<string, { term: string; credit: number }[]>();
    for (const x of expand(ownTerms)) {
      const credit = Math.min(0.9, TUNING.synonymCredit * x.strength);
      for (const t of x.from.split(" ")) equivalents.set(t, [...(equivalents.get(t) ?? []), { term: x.term, credit }]);
      if (weight.has(x.term)) continue;
      weight.set(x.term, Math.min(0.9, TUNING.synonym * x.strength));
      const from = own.find((o) => o.term === x.from || x.from.endsWith(` ${o.term}`));
      wordOf.set(x.term, { word: from?.word ?? x.from, as: x.word, via: "synonym" });
    }
    for (const turn of (opts.recent ?? []).slice(-3)) {
      for (const { term, word } of termsWithWords(turn.slice(0, MAX_REQUEST_CHARS)).slice(0, MAX_TERMS / 2)) {
        if (weight.has(term)) continue;
        weight.set(term, TUNING.recent);
        wordOf.set(term, { word, via: "earlier turn" });
      }
    }
    if (!weight.size || !searched) return { hits: [], abstain: true, reason: weight.size ? "there are no skills to search" : "the request has no searchable words", searched };

    const raw = this.ms.search([...weight.keys()].join(" "), {
      boost: Object.fromEntries(FIELDS.map((f) => [MS_FIELD[f], TUNING.boost[f]])),
      boostTerm: (t) => weight.get(t) ?? 1,
      prefix: (t) => TUNING.prefix > 0 && t.length >= 5 && weight.get(t) === 1,
      weights: { prefix: TUNING.prefix, fuzzy: 0 },
      ...(only ? { filter: (r) => only.has(r.id as string) } : {}),
    });

    const uniqueOwn = [...new Set(ownTerms)];
    const ownSet = new Set(uniqueOwn);
    // Document frequency of the request's words over every field, from the matches themselves.
    const dfAll = new Map<string, number>();
    for (const r of raw) for (const t in r.match) if (ownSet.has(t)) dfAll.set(t, (dfAll.get(t) ?? 0) + 1);
    const n = Math.max(searched, 1);
    // Per request word: its IDF, its equivalents (computed once per request, used for every document).
    const wanted = uniqueOwn.map((t) => {
      const df = dfAll.get(t) ?? 0;
      return { t, idf: Math.log(1 + (n - df + 0.5) / (df + 0.5)), eq: equivalents.get(t) ?? [] };
    });
    const ownIdf = wanted.reduce((a, o) => a + o.idf, 0) || 1;
    const ownPairs = [...new Set(ownTerms.slice(1).map((t, i) => `${ownTerms[i]} ${t}`))]
      .filter((p) => p.split(" ")[0] !== p.split(" ")[1])
      .map((p) => {
        const [x, y] = p.split(" ");
        return { p, bonus: (TUNING.phrase * (this.idf(x!) + this.idf(y!))) / 2 };
      });
    const bodyCredit = TUNING.bodyCredit;
    const scored = raw.map((r) => {
      const doc = this.docs.get(r.id as string)!;
      const match = r.match as Record<string, string[]>;
      let evidence = 0;
      for (const o of wanted) {
        if (doc.strong.has(o.t)) evidence += o.idf;
        else {
          // The best credit among equivalents found in the summary fields (a near-identity synonym counts more).
          let credit = match[o.t] ? bodyCredit : 0;
          for (const x of o.eq) if (x.credit > credit && doc.strong.has(x.term)) credit = x.credit;
          evidence += credit * o.idf;
        }
      }
      const confidence = Math.min(1, evidence / ownIdf);
      let phraseBonus = 0;
      let phrases: string[] = [];
      for (const pp of ownPairs) {
        if (!doc.pairs.has(pp.p)) continue;
        phraseBonus += pp.bonus;
        phrases = [...phrases, pp.p];
      }
      let namesSkill = doc.nameTerms.length > 0;
      for (const t of doc.nameTerms) if (!ownSet.has(t)) namesSkill = false;
      const quality = (r.queryTerms as string[]).length || 1;
      const score = (r.score / quality + phraseBonus + (namesSkill ? TUNING.name : 0)) * (TUNING.floor + confidence);
      return { doc, score, confidence, evidence, match, phrases, namesSkill };
    });
    scored.sort((a, b) => b.score - a.score || (a.doc.name < b.doc.name ? -1 : a.doc.name > b.doc.name ? 1 : 0));

    // Explanations are built when read (getters): a listing ranks hundreds of hits and shows the words of a few.
    const explainer = (m: Record<string, string[]>) => this.matchedWords(m, weight, wordOf);
    const hits: SearchHit[] = scored.slice(0, limit).map(
      (s) => new Hit(s.doc.id, s.doc.name, s.doc.description, round(s.score), round(s.confidence), s.phrases.map((p) => p.split(" ").map((t) => wordOf.get(t)?.word ?? t).join(" ")), s.namesSkill, s.match, explainer),
    );
    const best = scored[0];
    let reason: string | undefined;
    if (!best) reason = "no skill's text contains any word of the request";
    else if (best.confidence < TUNING.minConfidence) {
      reason = `the best match, '${best.doc.name}', carries only ${Math.round(best.confidence * 100)}% of the request's distinctive words (at least ${Math.round(TUNING.minConfidence * 100)}% needed)`;
    } else if (best.evidence / Math.log(1 + (Math.max(searched, 1) + 0.5) / 0.5) < TUNING.minEvidence) {
      reason = `the best match, '${best.doc.name}', shares only common words with the request`;
    }
    return { hits, abstain: reason !== undefined, ...(reason ? { reason } : {}), searched };
  }

  private matchedWords(match: Record<string, string[]>, weight: Map<string, number>, wordOf: Map<string, { word: string; as?: string; via?: MatchedWord["via"] }>): MatchedWord[] {
    const out: MatchedWord[] = [];
    for (const [term, msFields] of Object.entries(match)) {
      const fields = [...new Set(msFields.map((f) => FIELD_OF.get(f)!))].sort((a, b) => FIELDS.indexOf(a) - FIELDS.indexOf(b));
      const direct = wordOf.get(term);
      if (direct) {
        out.push({ word: direct.word, term, fields, ...(direct.as ? { as: direct.as } : {}), ...(direct.via ? { via: direct.via } : {}) });
        continue;
      }
      // A prefix match: the longest request term the document term starts with.
      let src = "";
      for (const t of weight.keys()) if (term.startsWith(t) && t.length > src.length) src = t;
      out.push({ word: wordOf.get(src)?.word ?? src, term, fields, via: "prefix" });
    }
    return out;
  }
}

const FIELD_PHRASE: Record<SearchField, string> = { name: "name matches", description: "description matches", headings: "headings match", tags: "tags match", body: "body matches" };

/** "name matches 'latency'; description matches 'p99', 'tail'; body matches 'qdrant'; phrase 'tail latency' (confidence 69%)". */
export function explain(matched: MatchedWord[], phrases: string[], namesSkill: boolean, confidence: number): string {
  if (!matched.length) return "no word of the request appears in this skill";
  // Each word once, under the strongest field it matched; a word matched directly is not repeated as a synonym.
  const best = new Map<string, { field: SearchField; direct: boolean; as: string[]; note?: string }>();
  for (const m of matched) {
    const field = m.fields[0]!;
    const key = m.word;
    const cur = best.get(key);
    const direct = m.via === undefined || m.via === "prefix";
    if (!cur || (direct && !cur.direct) || (direct === cur.direct && FIELDS.indexOf(field) < FIELDS.indexOf(cur.field))) {
      best.set(key, { field, direct, as: cur && !direct ? cur.as : [], ...(m.via === "prefix" ? { note: `in '${m.term}'` } : m.via === "earlier turn" ? { note: "from an earlier turn" } : {}) });
    }
    const b = best.get(key)!;
    if (m.via === "synonym" && !b.direct && m.as && !b.as.includes(m.as) && b.as.length < 3) b.as.push(m.as);
  }
  const byField = new Map<SearchField, string[]>();
  for (const [word, b] of best) {
    const label = `'${word}'${b.as.length ? ` (as ${b.as.map((a) => `'${a}'`).join(", ")})` : b.note ? ` (${b.note})` : ""}`;
    byField.set(b.field, [...(byField.get(b.field) ?? []), label]);
  }
  const parts = FIELDS.filter((f) => byField.has(f)).map((f) => `${FIELD_PHRASE[f]} ${byField.get(f)!.join(", ")}`);
  if (phrases.length) parts.push(`phrase ${phrases.map((p) => `'${p}'`).join(", ")}`);
  if (namesSkill) parts.push("the request names the skill");
  return `${parts.join("; ")} (confidence ${Math.round(confidence * 100)}%)`;
}
