// Words and meaning fused (issue 36, optional): the one lexical ranking and a ranking by embedding similarity,
// combined by reciprocal rank fusion (each list gives 1 / (60 + rank)), so a skill found by either part rises and
// one found by both rises most. Every hit says which part found it. When the embeddings endpoint fails (timeout,
// an error status, vectors of the wrong dimension) the ranking is the lexical one, and the first result of the outage
// says why; the endpoint is tried again after a back-off (30 s, doubling up to 5 min, back to 30 s once it answers),
// and the first result after it answers says so. Which doors use it: agent/routing.ts (the one router).
import { cosine, embed, EmbeddingsError, VectorStore, type EmbeddingsConfig } from "./embeddings";
import type { SearchHit, SearchResult } from "./engine";

/** The constant of reciprocal rank fusion (Cormack et al. 2009): damps the weight of the very first ranks. */
export const RRF_K = 60;
/** Hits found by meaning alone that are kept at least. */
const MEANING_KEEP = 20;

export interface MeaningSkill {
  id: string;
  name: string;
  description: string;
  /** The SKILL.md digest its vector is kept under. */
  digest: string;
}

/** The first wait before the endpoint is tried again after a failure; each failed try doubles it, up to the most. */
export const RETRY_FIRST_MS = 30_000;
const RETRY_MOST_MS = 5 * 60_000;

export interface HybridResult extends SearchResult {
  /** Which ranking this is. */
  ranking: "hybrid" | "lexical";
  /** On the first result of an outage: why the ranking is lexical only, and when the endpoint is tried again. */
  fallback?: string;
  /** With `fallback`: how long until the endpoint is tried again. */
  retryInMs?: number;
  /** On the first result after an outage: the endpoint answers again (how long words ranked alone). */
  recovered?: string;
}

/** The endpoint's outage: since when (the clock's ms), what failed last, and when it is tried again. */
interface Outage {
  since: number;
  code: string;
  waitMs: number;
  retryAt: number;
  /** The state's number when it began: a call started before it, failing, does not count against it. */
  epoch: number;
}

/** A ranking that gave up on meaning without a failure of its own: another call found the endpoint down meanwhile. */
class LeftToWords extends Error {}

export class HybridRanker {
  private outage: Outage | null = null;
  /** Grows with every outage begun or ended. */
  private epoch = 0;
  /** A try of the endpoint after its back-off is under way: other rankings do not wait for it. */
  private probing = false;
  /** Skills being embedded now: concurrent rankings wait for one call instead of embedding the same skills twice. */
  private embedding: Promise<void> = Promise.resolve();
  private readonly now: () => number;

  constructor(
    private readonly cfg: EmbeddingsConfig,
    private readonly store: VectorStore,
    /** `now`: the clock the back-off is counted on (tests move it). */
    opts: { now?: () => number } = {},
  ) {
    this.now = opts.now ?? Date.now;
  }

  /** Thrown when the endpoint went down since `epoch` (another ranking found it): no need to wait on it again. */
  private stillUp(epoch: number): void {
    if (this.outage && this.outage.epoch > epoch) throw new LeftToWords();
  }

  /** Vectors of these skills: the stored ones by digest, the missing ones embedded now (and stored). */
  private async skillVectors(skills: MeaningSkill[], epoch: number): Promise<Map<string, number[]>> {
    const fill = this.embedding.then(async () => {
      this.stillUp(epoch);
      let missing = skills.filter((s) => !this.store.get(s.digest));
      if (!missing.length) return;
      this.store.refresh(); // another process may have embedded them since
      missing = missing.filter((s) => !this.store.get(s.digest));
      if (!missing.length) return;
      const got = await embed(this.cfg, missing.map((s) => `${s.name}: ${s.description}`));
      missing.forEach((s, i) => this.store.set(s.digest, got[i]!, s.id));
      try {
        this.store.save();
      } catch {
        // a data home that cannot be written (full, read-only) costs the next process the embedding, not this ranking
      }
    });
    this.embedding = fill.catch(() => {});
    await fill;
    return new Map(skills.map((s) => [s.id, this.store.get(s.digest)!]));
  }

  /**
   * The lexical result over `skills` fused with their ranking by meaning, or the lexical one while the endpoint is
   * down: the first such result of an outage carries `fallback`, the later ones do not, and none waits on the
   * endpoint until its back-off has passed (then one ranking tries it, bounded by the timeout, and the others go on
   * by words meanwhile). The first fused result after an outage carries `recovered`.
   */
  async rank(request: string, lexical: SearchResult, skills: MeaningSkill[]): Promise<HybridResult> {
    const words: HybridResult = { ...lexical, ranking: "lexical" };
    if (!skills.length || !request.trim()) return words;
    const down = this.outage;
    if (down && (this.now() < down.retryAt || this.probing)) return words;
    const epoch = this.epoch;
    if (down) this.probing = true;
    let byMeaning: { id: string; similarity: number }[];
    try {
      let vectors = await this.skillVectors(skills, epoch);
      this.stillUp(epoch);
      const [q] = await embed(this.cfg, [request]);
      // Tried again after a wrong dimension: if a skill now comes back in the request's, the kept vectors are the old model's.
      if (q!.length !== this.store.dims && down?.code.startsWith("embeddings.dimension") && (await this.modelChanged(skills[0]!, q!.length))) vectors = await this.skillVectors(skills, epoch);
      if (q!.length !== this.store.dims) throw new EmbeddingsError("embeddings.dimension", `the request's vector has ${q!.length} dimensions, the skills' ${this.store.dims}`);
      byMeaning = skills.map((s) => ({ id: s.id, similarity: cosine(q!, vectors.get(s.id)!) })).sort((a, b) => b.similarity - a.similarity);
    } catch (e) {
      if (e instanceof LeftToWords) return words;
      if (!(e instanceof EmbeddingsError)) throw e;
      return this.failed(e, epoch, words);
    } finally {
      if (down) this.probing = false;
    }
    const fused: HybridResult = { ...fuse(lexical, byMeaning, skills), ranking: "hybrid" };
    const was = this.outage;
    if (!was) return fused;
    this.outage = null;
    this.epoch++;
    return { ...fused, recovered: `after ${Math.max(1, Math.round((this.now() - was.since) / 1000))} s by words only` };
  }

  /** Whether `skill`, embedded again, has `dims` dimensions unlike the kept vectors; if so they are dropped (the model changed). */
  private async modelChanged(skill: MeaningSkill, dims: number): Promise<boolean> {
    const [v] = await embed(this.cfg, [`${skill.name}: ${skill.description}`]);
    if (v!.length !== dims || v!.length === this.store.dims) return false;
    try {
      this.store.forget();
    } catch {
      // a data home that cannot be written: the vectors of this process are dropped all the same
    }
    return true;
  }

  /** A call failed: an outage begins (said once), a try after the back-off failed (it doubles), or it is already known. */
  private failed(e: EmbeddingsError, epoch: number, words: HybridResult): HybridResult {
    const code = `${e.code}: ${e.message}`;
    const known = this.outage;
    // Another ranking found it down after this call began: said and counted already.
    if (known && known.epoch > epoch) return words;
    const now = this.now();
    if (known) {
      const waitMs = Math.min(known.waitMs * 2, RETRY_MOST_MS);
      this.outage = { ...known, code, waitMs, retryAt: now + waitMs };
      return words;
    }
    this.epoch++;
    this.outage = { since: now, code, waitMs: RETRY_FIRST_MS, retryAt: now + RETRY_FIRST_MS, epoch: this.epoch };
    return { ...words, fallback: code, retryInMs: RETRY_FIRST_MS };
  }
}

const rankers = new Map<string, HybridRanker>();

/**
 * The process's one hybrid ranker for an endpoint, model and data home: every door of the process (the agent loop,
 * the playground, trigger tests, the console's search) shares its vectors in memory and its verdict on the endpoint,
 * so a failing endpoint is said once per process, not once per request.
 */
export function hybridRankerFor(cfg: EmbeddingsConfig, home: string): HybridRanker {
  const key = JSON.stringify([home, cfg.url, cfg.model, cfg.key ?? "", cfg.timeoutMs ?? 0]);
  let r = rankers.get(key);
  if (!r) rankers.set(key, (r = new HybridRanker(cfg, new VectorStore(home, cfg))));
  return r;
}

/** Reciprocal rank fusion of the lexical hits and the ranking by meaning; `why` names the part(s) that found each. */
export function fuse(lexical: SearchResult, byMeaning: { id: string; similarity: number }[], skills: MeaningSkill[]): SearchResult {
  // The lexical hits, and at least the first MEANING_KEEP by meaning (a skill no word found can still be among them).
  const limit = Math.max(lexical.hits.length, Math.min(byMeaning.length, MEANING_KEEP));
  const info = new Map(skills.map((s) => [s.id, s]));
  const fused = new Map<string, { score: number; lex?: { rank: number; hit: SearchHit }; meaning?: { rank: number; similarity: number } }>();
  lexical.hits.forEach((hit, i) => fused.set(hit.id, { score: 1 / (RRF_K + i + 1), lex: { rank: i + 1, hit } }));
  byMeaning.forEach((m, i) => {
    const f = fused.get(m.id) ?? { score: 0 };
    f.score += 1 / (RRF_K + i + 1);
    f.meaning = { rank: i + 1, similarity: m.similarity };
    fused.set(m.id, f);
  });
  const hits: SearchHit[] = [...fused]
    .filter(([id]) => info.has(id))
    .sort((a, b) => b[1].score - a[1].score || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit)
    .map(([id, f]) => {
      const s = info.get(id)!;
      const parts = [f.lex ? `words #${f.lex.rank}` : null, f.meaning ? `meaning #${f.meaning.rank} (similarity ${f.meaning.similarity.toFixed(2)})` : null].filter(Boolean).join(", ");
      const lex = f.lex?.hit;
      return {
        id,
        name: s.name,
        description: s.description,
        score: Math.round(f.score * 1e5) / 1e5,
        confidence: lex?.confidence ?? 0,
        matched: lex?.matched ?? [],
        why: `${lex ? `${lex.why}; ` : ""}found by ${parts}`,
      };
    });
  return { ...lexical, hits };
}
