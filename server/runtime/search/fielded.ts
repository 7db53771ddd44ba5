// A fielded inverted index scored with BM25F (Robertson & Zaragoza, "The Probabilistic Relevance Framework"):
// a term's frequencies in the fields of a document are length-normalised per field, weighted and summed BEFORE
// the one saturation, so a word found in the name and again in the body is not counted as two independent
// matches (what summing a BM25 per field does, and what made long bodies outrank exact names at 591 skills).
// Incremental: documents are added and removed one at a time, as the registry changes.

export interface FieldParams {
  /** How much a field's occurrences count (the name more than the body). */
  weight: number;
  /** Length normalisation of the field, 0 (none) to 1 (full). */
  b: number;
}

interface Doc {
  /** Its distinct terms (to remove it). */
  terms: string[];
  /** Field lengths in terms. */
  len: readonly number[];
  /** weight / (1 - b + b * len / avgLen) per field, for the parameters and lengths of `normsOf`. */
  norms?: Float64Array;
  normsOf?: string;
}

/** One term's postings weighed for one set of parameters: what every search for the term reuses. */
interface Weighed {
  key: string;
  ids: string[];
  /** Field frequencies, length-normalised and weighted, summed (the tf BM25F saturates). */
  tf: Float64Array;
  /** The fields the term occurs in, per document (bit i: field i). */
  fields: Int32Array;
}

/** A document's terms counted per field: per term, its count in each field; and each field's length in terms. Read-only once made. */
export interface FieldCounts {
  readonly tf: ReadonlyMap<string, readonly number[]>;
  readonly len: readonly number[];
}

export function fieldCounts(fields: string[][], fieldCount: number): FieldCounts {
  // Plain arrays: a small typed array per term and document costs more to make than its numbers take.
  const tf = new Map<string, number[]>();
  const len = fields.map((terms, f) => {
    for (const t of terms) {
      let row = tf.get(t);
      if (!row) tf.set(t, (row = new Array<number>(fieldCount).fill(0)));
      row[f]!++;
    }
    return terms.length;
  });
  return { tf, len };
}

export class FieldedIndex {
  private docs = new Map<string, Doc>();
  /** Per term: the documents holding it and its frequency in each of their fields. */
  private postings = new Map<string, Map<string, readonly number[]>>();
  private lenSum: number[];
  /** Changes with every add and remove (average lengths change with them). */
  private version = 0;
  private lastKey = "";
  /**
   * Terms already weighed since the last change: a batch of requests repeats common words, and weighing a term's
   * postings (per document: its norms, its fields) costs more than scoring them.
   */
  private weighed = new Map<string, Weighed>();

  constructor(readonly fieldCount: number) {
    this.lenSum = new Array<number>(fieldCount).fill(0);
  }

  get size(): number {
    return this.docs.size;
  }

  has(id: string): boolean {
    return this.docs.has(id);
  }

  /** Adds a document from its terms per field (in field order). Replaces an earlier one with the same id. */
  add(id: string, fields: string[][]): void {
    this.addCounts(id, fieldCounts(fields, this.fieldCount));
  }

  /** Adds a document from its counted terms (fieldCounts: shared by every index that holds the document). */
  addCounts(id: string, counts: FieldCounts): void {
    if (this.docs.has(id)) this.remove(id);
    for (const [t, row] of counts.tf) {
      let p = this.postings.get(t);
      if (!p) this.postings.set(t, (p = new Map()));
      p.set(id, row);
    }
    counts.len.forEach((n, f) => (this.lenSum[f]! += n));
    this.docs.set(id, { terms: [...counts.tf.keys()], len: counts.len });
    this.version++;
    this.weighed.clear();
  }

  remove(id: string): void {
    const d = this.docs.get(id);
    if (!d) return;
    for (const t of d.terms) {
      const p = this.postings.get(t)!;
      p.delete(id);
      if (!p.size) this.postings.delete(t);
    }
    d.len.forEach((n, f) => (this.lenSum[f]! -= n));
    this.docs.delete(id);
    this.version++;
    this.weighed.clear();
  }

  /** Documents holding the term in any field. */
  df(term: string): number {
    return this.postings.get(term)?.size ?? 0;
  }

  /** Inverse document frequency (the BM25 form, never negative). */
  idf(term: string): number {
    const n = this.docs.size;
    const df = this.df(term);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** Every indexed term (for spelling and prefix look-ups). */
  vocabulary(): IterableIterator<string> {
    return this.postings.keys();
  }

  /**
   * Calls `each` with the BM25F of one term in every document holding it (optionally only these ids): its
   * contribution before the caller's query weight, and the fields it occurs in (bit i: field i).
   */
  score(term: string, params: readonly FieldParams[], k1: number, only: ReadonlySet<string> | undefined, each: (id: string, score: number, fields: number) => void): void {
    const p = this.postings.get(term);
    if (!p) return;
    const n = this.docs.size;
    const idf = Math.log(1 + (n - p.size + 0.5) / (p.size + 0.5));
    // The same key object while nothing changes: the checks below are then pointer comparisons.
    let key = `${this.version} ${k1} ${params.map((x) => `${x.weight}/${x.b}`).join(" ")}`;
    if (key === this.lastKey) key = this.lastKey;
    else this.lastKey = key;
    let w = this.weighed.get(term);
    if (!w || w.key !== key) this.weighed.set(term, (w = this.weigh(p, params, key)));
    const { ids, tf, fields } = w;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (only && !only.has(id)) continue;
      const t = tf[i]!;
      if (t > 0) each(id, (idf * t) / (k1 + t), fields[i]!);
    }
  }

  private weigh(p: Map<string, readonly number[]>, params: readonly FieldParams[], key: string): Weighed {
    const ids = [...p.keys()];
    const tf = new Float64Array(ids.length);
    const fields = new Int32Array(ids.length);
    ids.forEach((id, i) => {
      const d = this.docs.get(id)!;
      if (d.normsOf !== key) {
        d.norms = this.norms(d, params);
        d.normsOf = key;
      }
      const norms = d.norms!;
      const row = p.get(id)!;
      for (let f = 0; f < row.length; f++) {
        const c = row[f]!;
        if (!c) continue;
        fields[i]! |= 1 << f;
        tf[i]! += c * norms[f]!;
      }
    });
    return { key, ids, tf, fields };
  }

  private norms(d: Doc, params: readonly FieldParams[]): Float64Array {
    const n = this.docs.size || 1;
    const out = new Float64Array(this.fieldCount);
    for (let f = 0; f < this.fieldCount; f++) {
      const avg = this.lenSum[f]! / n || 1;
      const { weight, b } = params[f]!;
      out[f] = weight / (1 - b + (b * d.len[f]!) / avg);
    }
    return out;
  }
}
