// Passage-level evidence (Callan 1994; "MaxP"): a long skill body covers many topics, so scored as one document
// its words blur; scored by its best passage, a section that is about the request speaks for the skill. A passage
// is a section of the whole body (the text under a heading up to the next heading, headed by its chain of
// headings), cut into overlapping windows when long. Passages are made on first need per skill (only skills that
// reach a ranking's first k are ever split) and kept with the skill's analysed document.
import { terms } from "./text";

export interface Passage {
  /** Term counts. */
  readonly tf: ReadonlyMap<string, number>;
  /** Length in terms. */
  readonly len: number;
}

/** Terms in a window of a long section, and how far the next window starts (half overlap). */
export const WINDOW = 100;
const STRIDE = 50;
/** Body characters read for passages (a body is capped at 1 MB on reading already; past this it is reference material). */
const MAX_CHARS = 60_000;

interface Section {
  chain: string;
  lines: string[];
}

/** The body's sections outside code fences: each heading's own text (up to the next heading), with its chain of headings. */
function sections(body: string): Section[] {
  const out: Section[] = [{ chain: "", lines: [] }];
  const stack: { level: number; text: string }[] = [];
  let fence: string | null = null;
  for (const line of body.split("\n")) {
    const f = /^\s{0,3}(```+|~~~+)/.exec(line);
    if (f) {
      if (!fence) fence = f[1]![0]!;
      else if (f[1]![0] === fence) fence = null;
      continue;
    }
    // Code is left out: its identifiers are evidence in the summary and the opening, but a passage is prose.
    if (fence) continue;
    const h = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      const level = h[1]!.length;
      while (stack.length && stack[stack.length - 1]!.level >= level) stack.pop();
      stack.push({ level, text: h[2]! });
      out.push({ chain: stack.map((s) => s.text).join(" / "), lines: [] });
    } else if (line.trim()) out[out.length - 1]!.lines.push(line);
  }
  return out.filter((s) => s.lines.length);
}

function counted(list: string[]): Passage {
  const tf = new Map<string, number>();
  for (const t of list) tf.set(t, (tf.get(t) ?? 0) + 1);
  return { tf, len: list.length };
}

/** The passages of a skill body (Markdown without frontmatter). */
export function passagesOf(body: string): Passage[] {
  const text = body.length > MAX_CHARS ? body.slice(0, MAX_CHARS) : body;
  const out: Passage[] = [];
  for (const s of sections(text)) {
    const head = terms(s.chain);
    const prose = s.lines.join("\n").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/https?:\/\/\S+/g, " ");
    const own = terms(prose);
    if (own.length <= WINDOW) {
      out.push(counted([...head, ...own]));
      continue;
    }
    for (let i = 0; i < own.length; i += STRIDE) {
      out.push(counted([...head, ...own.slice(i, i + WINDOW)]));
      if (i + WINDOW >= own.length) break;
    }
  }
  return out;
}

export interface PassageTerm {
  term: string;
  /** The term's weight in the request times its IDF. */
  weight: number;
}

const K1 = 1.2;
const B = 0.75;
/** The length passages are normalised against: a full window's terms with its headings (fixed, so a score does not depend on which skills were split before). */
const AVG_LEN = 60;

/** BM25 of one passage for the request's weighted terms. */
function scorePassage(p: Passage, query: readonly PassageTerm[]): number {
  const norm = K1 * (1 - B + (B * p.len) / AVG_LEN);
  let s = 0;
  for (const q of query) {
    const tf = p.tf.get(q.term);
    if (tf) s += (q.weight * tf * (K1 + 1)) / (tf + norm);
  }
  return s;
}

/** The best passage's score, plus the second best's at weight `second`. */
export function bestPassage(passages: readonly Passage[], query: readonly PassageTerm[], second = 0): number {
  let a = 0;
  let b = 0;
  for (const p of passages) {
    const s = scorePassage(p, query);
    if (s > a) {
      b = a;
      a = s;
    } else if (s > b) b = s;
  }
  return a + second * b;
}

/** Each skill's passages, made on first need and kept while its analysed document lives. */
const made = new WeakMap<object, Passage[]>();

function passagesFor(doc: { readonly source: string }): Passage[] {
  let p = made.get(doc);
  if (!p) made.set(doc, (p = passagesOf(doc.source)));
  return p;
}

export interface PassageFusion {
  /** How much the best passage's share of the most a passage could score raises a hit's score. */
  weight: number;
  /** How many of the first stage's hits are reranked (only these skills' bodies are ever split). */
  depth: number;
  /** Weight of the second-best passage beside the best (0: the best alone). */
  second: number;
}

/**
 * Reorders the first `depth` of a ranking (best first): each hit's score × (1 + weight × its best passage's
 * share). Scores only rise, so the hits below `depth` stay below.
 */
export function rerankByPassages<T extends { doc: { readonly source: string }; score: number }>(ranked: T[], query: readonly PassageTerm[], f: PassageFusion): void {
  const depth = Math.min(ranked.length, f.depth);
  if (depth < 2 || f.weight <= 0) return;
  // The most a passage could score: every request term, saturated.
  const full = query.reduce((a, q) => a + q.weight * (K1 + 1), 0);
  if (full <= 0) return;
  const top = ranked.slice(0, depth).map((x, i) => ({ x, i, score: x.score * (1 + (f.weight * bestPassage(passagesFor(x.doc), query, f.second)) / full) }));
  top.sort((a, b) => b.score - a.score || a.i - b.i);
  top.forEach((t, r) => {
    t.x.score = t.score;
    ranked[r] = t.x;
  });
}
