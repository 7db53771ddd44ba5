// When the search abstains (no skill serves the request well enough): a decision over a few signals of the best hit
// and of the request that the ranking has at hand, so that no single number has to separate served requests from
// requests no skill serves. A model's constants are fitted on the tune parts of the request sets only
// (scripts/fit-abstention.ts refits them); the engine only gathers the signals and calls it. Today no fitted model
// beats confidence alone on requests it was not fitted on, so confidence alone decides (docs/search-tuning.md "Fifth pass").

/** One request word as the best hit met it. */
export interface WordSeen {
  /** IDF over every field of the catalog. */
  idf: number;
  /** Skills holding the word in any field. */
  df: number;
  /** Where the best hit holds it: its name, description, headings or tags; only its body; not at all. */
  found: "summary" | "body" | "none";
}

/** What the engine knows of a search when it decides: the best hit, the next one, the request's words. */
export interface AbstentionInput {
  searched: number;
  best: string;
  next?: string;
  /** The best hit's confidence (0..1) and the summed IDF credit behind it. */
  confidence: number;
  evidence: number;
  score: number;
  nextScore: number;
  words: WordSeen[];
}

/** The signals the decision weighs, each a number computed once per search. */
export const SIGNALS = ["confidence", "common", "lacking", "unknown", "margin", "rarest", "length", "summaryWords", "bodyOnly", "skills", "concentration", "rest"] as const;
export type Signal = (typeof SIGNALS)[number];
export type Signals = Record<Signal, number>;

/** The IDF of a word no skill has: what summed IDF is measured against, so catalogs of any size compare. */
const unseenIdf = (searched: number) => Math.log(1 + (Math.max(searched, 1) + 0.5) / 0.5);

export function signalsOf(x: AbstentionInput): Signals {
  const top = unseenIdf(x.searched);
  let lacking = 0;
  let unknown = 0;
  let own = 0;
  let summaryWords = 0;
  let rarest = Infinity;
  let strongest = 0;
  for (const w of x.words) {
    own += w.idf;
    if (w.df === 0) unknown += w.idf;
    else if (w.found === "none") lacking += w.idf;
    if (w.found === "summary") {
      summaryWords++;
      rarest = Math.min(rarest, w.df);
      strongest = Math.max(strongest, w.idf);
    }
  }
  return {
    confidence: x.confidence,
    // The evidence in units of one unseen word: under 0.45 the best hit shares only common words.
    common: x.evidence / top,
    // Distinctive words the catalog knows but the best hit lacks, and words no skill has at all.
    lacking: lacking / top,
    unknown: own ? unknown / own : 0,
    margin: x.score > 0 ? (x.score - x.nextScore) / x.score : 0,
    // How many skills share the rarest word the best hit carries in its summary (few: a distinctive match).
    rarest: Math.log(1 + (Number.isFinite(rarest) ? rarest : x.searched)),
    length: Math.log(1 + x.words.length),
    summaryWords,
    bodyOnly: summaryWords === 0 ? 1 : 0,
    skills: Math.log(Math.max(1, x.searched)),
    // How much of the evidence one word carries, and the confidence left without that word: a request answered
    // on the strength of one rare word ("calories in a banana") differs from one several words agree on.
    concentration: x.evidence > 0 ? Math.min(1, strongest / x.evidence) : 1,
    rest: own ? Math.max(0, x.evidence - strongest) / own : 0,
  };
}

/** The common-words rule: evidence under this many unseen words' IDF is no evidence ("please help me"). */
export const MIN_EVIDENCE = 0.45;

/**
 * Confidence alone (the rule before the model): a bar rising with ln(skills searched), since among more skills some
 * skill shares a word or two with any request by chance.
 */
export const CONFIDENCE_RULE = { base: 0.149, perLog: 0.0135 };
export const minConfidence = (searched: number) => CONFIDENCE_RULE.base + CONFIDENCE_RULE.perLog * Math.log(Math.max(1, searched));

/**
 * A linear model over standardised signals: abstain when bias + Σ weight × (x − mean) / scale is under
 * cut + cutPerLog × ln(skills searched) (the bar rises with the catalog, as the confidence bar does).
 */
export interface AbstentionModel {
  signals: Signal[];
  mean: number[];
  scale: number[];
  weights: number[];
  bias: number;
  cut: number;
  cutPerLog: number;
}

/** Why the search abstains, in words; undefined when it answers. `model` null: confidence alone. */
export function abstainReason(x: AbstentionInput, model: AbstentionModel | null = MODEL): string | undefined {
  const s = signalsOf(x);
  const best = `the best match, '${x.best}',`;
  const common = `${best} shares only common words with the request`;
  if (!model) {
    const bar = minConfidence(x.searched);
    if (s.confidence < bar) return `${best} carries only ${pct(s.confidence)} of the request's distinctive words (at least ${pct(bar)} needed among ${x.searched} skills)`;
    return s.common < MIN_EVIDENCE ? common : undefined;
  }
  if (s.common < MIN_EVIDENCE) return common;
  const parts = model.signals.map((name, i) => ({ name, part: (model.weights[i]! * (s[name] - model.mean[i]!)) / model.scale[i]! }));
  const z = model.bias + parts.reduce((a, p) => a + p.part, 0);
  if (z >= model.cut + model.cutPerLog * s.skills) return undefined;
  // The signal that pulled furthest toward abstaining says why.
  const worst = parts.reduce((a, p) => (p.part < a.part ? p : a));
  return `${best} ${SAYS[worst.name](s, x)}`;
}

const pct = (n: number) => `${Math.round(n * 100)}%`;

const SAYS: Record<Signal, (s: Signals, x: AbstentionInput) => string> = {
  confidence: (s) => `carries only ${pct(s.confidence)} of the request's distinctive words`,
  common: () => "shares only common words with the request",
  lacking: () => "lacks most of the request's distinctive words that other skills have",
  unknown: (s) => `is weak evidence: ${pct(s.unknown)} of the request's distinctive words are in no skill's text`,
  margin: (_, x) => `is hardly ahead of the next one${x.next ? `, '${x.next}'` : ""}`,
  rarest: (s) => `shares no word with the request that fewer than ${Math.round(Math.exp(s.rarest) - 1)} skills have`,
  length: () => "matches too little of a long request",
  summaryWords: (s) => `has only ${s.summaryWords} of the request's words in its name, description, headings or tags`,
  bodyOnly: () => "matches the request only in its body",
  skills: (_, x) => `is not enough among ${x.searched} skills`,
  concentration: () => "rests on a single word of the request",
  rest: () => "shares little with the request beyond a single word",
};

/**
 * The committed model (scripts/fit-abstention.ts prints one): none. The best fit on the tune parts, confidence with
 * a trace of the rarest shared word's spread, abstained on 2 more of 114 held-out no-skill requests and answered 1
 * fewer of 465 served, losing on the third set's hold-out: no better than confidence alone (docs/search-tuning.md "Fifth pass").
 */
export const MODEL: AbstentionModel | null = null;
