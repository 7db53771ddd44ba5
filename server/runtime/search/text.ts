// Text to search terms, the same way for skills and requests: words split at punctuation, case changes
// (FastMCP -> fast, mcp) and name hyphens (pdf-form-filler -> pdf, form, filler), common words dropped,
// each word reduced to its Porter stem (forecasting, forecasts -> forecast), a few spellings unified.
import { stemmer } from "stemmer";

// Function words and request filler. Words that only sound generic ("data", "file", "code") stay: the
// inverse document frequency already weighs them by how common they are in the catalog.
const STOP = new Set(
  (
    "a about above after again all also am an and any are as at be been before being below between both but by " +
    "can could did do does doing done down during each either etc even ever every few for from further get gets " +
    "getting got had has have having he her here hers him his how however i i'd i'm if in into is it it's its itself " +
    "just let let's lets like me mine more most much must my myself need needs no nor not now of off often on once " +
    "one only or other our ours ourselves out over own please same shall she should so some still such than that " +
    "the their theirs them then there these they this those though through thus to too under until up upon us " +
    "very via want wants was we well were what whatever when where whether which while who whom whose why will " +
    "with within without would yet you your yours yourself yourselves thing things something anything everything " +
    "kind sort lot lots really maybe actually basically simply quite rather able " +
    // Contractions, as their parts (don't -> don, t) and as typed without the apostrophe.
    "don doesn didn isn aren wasn weren hasn haven hadn won wouldn couldn shouldn ll re ve " +
    "dont doesnt didnt isnt arent wasnt cant wont wouldnt couldnt shouldnt im ive youre whats thats theres"
  ).split(" "),
);

/** Spellings a stemmer cannot unify: joined product names and common short forms. */
const SPELLINGS: Record<string, string> = {
  "c++": "cpp",
  "c#": "csharp",
  "f#": "fsharp",
  ".net": "dotnet",
  "e-mail": "email",
};

/** Irregular forms Porter leaves apart. Keys and values are raw (lower-case) words. */
const LEMMA_LIST: Record<string, string> = {
  analysis: "analyze",
  analyses: "analyze",
  analyse: "analyze",
  analyzing: "analyze",
  analysing: "analyze",
  children: "child",
  people: "person",
  better: "good",
  best: "good",
  faster: "fast",
  fastest: "fast",
  slower: "slow",
  bigger: "big",
  smaller: "small",
  larger: "large",
  wrote: "write",
  written: "write",
  ran: "run",
  broke: "break",
  broken: "break",
  built: "build",
  made: "make",
  went: "go",
  failure: "fail",
  failures: "fail",
  // British spellings people type; skills are mostly written in American English.
  behaviour: "behavior",
  behaviours: "behavior",
  colour: "color",
  colours: "color",
  optimise: "optimize",
  optimised: "optimize",
  optimising: "optimize",
  organise: "organize",
  organised: "organize",
  analysed: "analyze",
  visualise: "visualize",
  visualisation: "visualization",
  summarise: "summarize",
  licence: "license",
  catalogue: "catalog",
  centre: "center",
  favourite: "favorite",
  initialise: "initialize",
  serialise: "serialize",
  customise: "customize",
  recognise: "recognize",
  neighbour: "neighbor",
  neighbours: "neighbor",
};
// A Map, not an object: a word like "constructor" must not find Object.prototype's members.
const LEMMAS = new Map(Object.entries(LEMMA_LIST));

/**
 * Words Porter reduces onto a different word's stem (sliding/slides -> slide, news -> new, general/generate ->
 * gener, experiment/experience -> experi, organize/organ): these keep a stem of their own.
 */
const OWN_STEM = new Map(
  Object.entries({
    sliding: "sliding",
    news: "news",
    general: "general",
    generally: "general",
    generic: "generic",
    community: "community",
    communities: "community",
    animal: "animal",
    animals: "animal",
    experiment: "experiment",
    experiments: "experiment",
    experimental: "experiment",
    experimentation: "experiment",
    organize: "organize",
    organized: "organize",
    organizing: "organize",
    organization: "organize",
    organizations: "organize",
    university: "university",
    universities: "university",
    universe: "universe",
  }),
);

const stemCache = new Map<string, string>();

/** The search form of one lower-case word (stem, after lemma overrides). Cached: a catalog repeats words a lot. */
export function stemWord(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    const w = LEMMAS.get(word) ?? word;
    s = OWN_STEM.get(w) ?? stemmer(w);
    if (stemCache.size > 200_000) stemCache.clear();
    stemCache.set(word, s);
  }
  return s;
}

/** A word seen with this stem (the first in the stem cache), to say in words what a stem stands for; rarely called. */
export function wordOfStem(stem: string): string | undefined {
  for (const [word, s] of stemCache) if (s === stem) return word;
  return undefined;
}

/**
 * Raw words of a text, lower-cased, in order. camelCase and PascalCase are split, and the joined form is kept
 * too ("TimesFM" -> times, fm, timesfm), so both spellings a person might type match.
 */
export function words(text: string): string[] {
  const out: string[] = [];
  // eslint-disable-next-line no-control-regex
  const ascii = !/[^\x00-\x7f]/.test(text);
  // Accents folded (é -> e); NFC after, so a kana and its voicing mark stay one letter.
  let t = ascii ? text : text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").normalize("NFC");
  if (/[+#]|\.net|e-mail/i.test(t)) {
    t = t.replace(/(?:^|\s)(c\+\+|c#|f#|\.net|e-mail)(?=$|[\s,.;:!?)])/gi, (m, w: string) => m.slice(0, m.length - w.length) + " " + SPELLINGS[w.toLowerCase()]! + " ");
  }
  if (ascii) {
    const re = /[A-Za-z0-9]+/g;
    for (let m = re.exec(t); m; m = re.exec(t)) latinWord(m[0], out);
    return out;
  }
  // Other scripts are words too (Cyrillic, Greek, Arabic...); a run of a script written without spaces
  // (Chinese, Japanese, Thai...) becomes its overlapping character pairs, the usual way to search it without a
  // dictionary: 翻訳します -> 翻訳, 訳し, しま, ます.
  const re = /[A-Za-z0-9]+|[\p{L}\p{N}\p{M}]+/gu;
  for (let m = re.exec(t); m; m = re.exec(t)) {
    for (const part of m[0].split(UNSPACED_RUN)) {
      if (!part) continue;
      if (/^[A-Za-z0-9]+$/.test(part)) latinWord(part, out);
      else if (!UNSPACED.test(part)) out.push(part.toLowerCase());
      else if (part.length === 1) out.push(part);
      else for (let i = 0; i + 1 < part.length; i++) out.push(part.slice(i, i + 2));
    }
  }
  return out;
}

const UNSPACED_CHARS = "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}\\u30fc\\u3005";
const UNSPACED = new RegExp(`[${UNSPACED_CHARS}]`, "u");
/** Splits a word at the edges of its runs in those scripts, keeping the runs. */
const UNSPACED_RUN = new RegExp(`([${UNSPACED_CHARS}]+)`, "u");

/** A word of Latin letters and digits, lower-cased; a mixed-case one also as its parts (FastMCP -> fast, mcp, fastmcp). */
function latinWord(raw: string, out: string[]): void {
  const lower = raw.toLowerCase();
  // Only mixed-case words are split (a fast test first: most words are all lower case).
  if (lower !== raw && /[a-z][A-Z]|[A-Z][A-Z][a-z]/.test(raw)) {
    const parts = raw.split(/(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/);
    for (const p of parts) out.push(p.toLowerCase());
  }
  out.push(lower);
}

/** Search terms of a text: words without stop words and one-letter tokens, stemmed. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    if (w.length < 2 && !/[0-9]/.test(w)) continue;
    if (STOP.has(w)) continue;
    out.push(stemWord(w));
  }
  return out;
}

/**
 * Terms with the raw word each came from, in order (for explanations and bigrams). A word split by case
 * yields its parts first and the joined form last, at the same position as its last part.
 */
export function termsWithWords(text: string): { term: string; word: string }[] {
  const out: { term: string; word: string }[] = [];
  for (const w of words(text)) {
    if ((w.length < 2 && !/[0-9]/.test(w)) || STOP.has(w)) continue;
    out.push({ term: stemWord(w), word: w });
  }
  return out;
}

/** A skill name as words: "pdf-form-filler" -> "pdf form filler"; "qdrant_scaling.v2" -> "qdrant scaling v2". */
export function nameWords(name: string): string {
  return name.replace(/[-_.:/@]+/g, " ").trim();
}

/**
 * Markdown headings of a body, outside fenced code (a "# comment" in a bash block is not a heading).
 * Decorations (#, trailing #, emphasis, links, inline code marks) are removed.
 */
export function headings(body: string): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of body.split("\n")) {
    const f = /^\s{0,3}(```+|~~~+)/.exec(line);
    if (f) {
      if (!fence) fence = f[1]![0]!;
      else if (f[1]![0] === fence) fence = null;
      continue;
    }
    if (fence) continue;
    const h = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h && h[1]) out.push(h[1].replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[*_`]/g, ""));
  }
  return out;
}

/** The body as prose for indexing: links reduced to their text, URLs and HTML tags dropped. Code stays (its identifiers are evidence). */
export function bodyText(body: string): string {
  return body
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/<[^>\n]{1,200}>/g, " ");
}
