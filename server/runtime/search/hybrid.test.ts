// Meaning fused with words, against a scripted embeddings server on 127.0.0.1 (test-support.ts): the fused
// ranking and its explanation, vectors kept per SKILL.md digest, and each failure falling back to the lexical
// ranking, said once per outage, with the endpoint tried again after a back-off counted on a clock the test moves.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestHome } from "../../test-support/test-home";
import { VectorStore } from "./embeddings";
import { scriptedEmbeddings, type EmbeddingsServer } from "./test-support/search";
import { SkillSearch, type SearchResult } from "./engine";
import { HybridRanker, type MeaningSkill, RETRY_FIRST_MS } from "./hybrid";

const SKILLS: MeaningSkill[] = [
  { id: "wetlab", name: "wetlab-assays", description: "Order binding assays for antibodies from a partner laboratory.", digest: "d-wetlab-1" },
  { id: "tuner", name: "latency-tuner", description: "Bring down the p99 of web services under load.", digest: "d-tuner-1" },
  { id: "poet", name: "poem-writer", description: "Write short poems and haiku for any occasion.", digest: "d-poet-1" },
  { id: "design", name: "design-notes", description: "Write design notes for the target architecture of an invoice, billing and payment system.", digest: "d-design-1" },
];
const REQUEST = "check whether the peptides I ordered stick to the target of our designs";

describe("hybrid ranking over a scripted embeddings server", () => {
  let server: EmbeddingsServer;
  const t = useTestHome(() => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "of-embeddings-"));
    return { home, cleanup: () => fs.rmSync(home, { recursive: true, force: true }) };
  });
  const search = SkillSearch.fromText(SKILLS);
  const lexical = () => {
    const r = search.search(REQUEST, { limit: 10 });
    // fromText keys hits by name; the ranker's skills by id.
    return { ...r, hits: r.hits.map((h) => ({ ...h, id: SKILLS.find((s) => s.name === h.name)!.id, why: h.why, matched: h.matched })) };
  };
  // A ranker over `skills` as a new process would make it (its own store read from the data home), on `clock`.
  const ranker = (skills = SKILLS, timeoutMs?: number, clock = { ms: 0 }) => {
    const cfg = { url: server.url, model: "scripted-1", ...(timeoutMs ? { timeoutMs } : {}) };
    const r = new HybridRanker(cfg, new VectorStore(t.home, cfg), { now: () => clock.ms });
    return { rank: (request: string, lexical: SearchResult) => r.rank(request, lexical, skills) };
  };
  beforeAll(async () => {
    server = await scriptedEmbeddings();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.mode = "ok";
    server.calls.length = 0;
  });

  it("puts first the skill both parts find, and says which part found each hit", async () => {
    const words = lexical();
    // 'designs' and 'target' put design notes first by words; only 'ordered' is wetlab's.
    expect(words.hits.map((h) => h.name)).toEqual(["design-notes", "wetlab-assays"]);
    const r = await ranker().rank(REQUEST, words);
    expect(r.ranking).toBe("hybrid");
    expect(r.fallback).toBeUndefined();
    expect(r.hits.map((h) => h.name)).toEqual(["wetlab-assays", "design-notes", "latency-tuner", "poem-writer"]);
    expect(r.hits[0]!.why).toMatch(/^description matches 'ordered'.*; found by words #2, meaning #1 \(similarity [01]\.\d\d\)$/);
    expect(r.hits[1]!.why).toMatch(/; found by words #1, meaning #4 /);
    expect(r.hits[2]!.why).toMatch(/^found by meaning #2 \(similarity 0\.\d\d\)$/);
  });

  it("a connection the server drops without an answer (a kept-alive socket it let go) is tried again at once: no outage", async () => {
    server.mode = "drop-once";
    const r = await ranker().rank(REQUEST, lexical());
    expect(r.fallback).toBeUndefined();
    expect(r.ranking).toBe("hybrid");
    expect(r.hits[0]!.name).toBe("wetlab-assays");
    // The skills' batch twice (dropped, then answered), then the request.
    expect(server.calls).toEqual([SKILLS.length, SKILLS.length, 1]);
  });

  it("embeds each skill once per SKILL.md digest, kept in the data home; a changed skill alone is embedded again", async () => {
    await ranker().rank(REQUEST, lexical());
    expect(server.calls).toEqual([4, 1]); // the four skills, then the request
    const store = fs.readdirSync(path.join(t.home, "embeddings"));
    expect(store).toHaveLength(1);
    expect(fs.statSync(path.join(t.home, "embeddings", store[0]!)).mode & 0o077).toBe(0);
    server.calls.length = 0;
    await ranker().rank(REQUEST, lexical()); // a new process: vectors from the data home
    expect(server.calls).toEqual([1]);
    server.calls.length = 0;
    await ranker(SKILLS.map((s) => (s.id === "poet" ? { ...s, description: "Write sonnets.", digest: "d-poet-2" } : s))).rank(REQUEST, lexical());
    expect(server.calls).toEqual([1, 1]);
    // The changed skill's old vector is gone from the store; the others stay.
    const kept = JSON.parse(fs.readFileSync(path.join(t.home, "embeddings", store[0]!), "utf8")) as { vectors: Record<string, number[]> };
    expect(Object.keys(kept.vectors).sort()).toEqual(["d-design-1", "d-poet-2", "d-tuner-1", "d-wetlab-1"]);
  });

  it("keeps what two processes embedded at once: each write merges the other's vectors, so neither embeds them again", async () => {
    // Both stores are opened before either writes, as a console and a CLI run started together would.
    const a = ranker(SKILLS.slice(0, 2));
    const b = ranker(SKILLS.slice(2));
    await a.rank(REQUEST, lexical());
    await b.rank(REQUEST, lexical());
    expect(server.calls).toEqual([2, 1, 2, 1]);
    server.calls.length = 0;
    await ranker().rank(REQUEST, lexical()); // a third process finds all four kept
    expect(server.calls).toEqual([1]);
  });

  it("a long-lived process takes what another process embedded since it started instead of embedding it again", async () => {
    const console_ = ranker(); // opened first, with nothing stored yet
    await ranker().rank(REQUEST, lexical()); // a CLI run embeds the four skills and keeps them
    expect(server.calls).toEqual([4, 1]);
    server.calls.length = 0;
    await console_.rank(REQUEST, lexical());
    expect(server.calls).toEqual([1]); // only the request
  });

  for (const [mode, code] of [
    ["error", /^embeddings\.http: the server answered 500$/],
    ["hang", /^embeddings\.timeout: no answer within 0 s$/],
    ["short-request-vectors", /^embeddings\.dimension: the request's vector has 3 dimensions, the skills' 4$/],
  ] as const) {
    it(`falls back to the lexical ranking when the endpoint ${mode === "hang" ? "does not answer" : mode === "error" ? "answers 500" : "returns a vector of another dimension"}, says so once, and fuses again once it answers after the back-off`, async () => {
      server.mode = mode;
      const clock = { ms: 1_000_000 };
      const h = ranker(SKILLS, 300, clock);
      const words = lexical();
      const first = await h.rank(REQUEST, words);
      expect(first.ranking).toBe("lexical");
      expect(first.fallback).toMatch(code);
      expect(first.retryInMs).toBe(RETRY_FIRST_MS);
      expect(first.hits.map((x) => x.name)).toEqual(words.hits.map((x) => x.name));
      const calls = server.calls.length;
      const second = await h.rank(REQUEST, words);
      expect(second.ranking).toBe("lexical");
      expect(second.fallback).toBeUndefined();
      expect(server.calls.length).toBe(calls); // not asked again during the back-off
      server.mode = "ok";
      clock.ms += RETRY_FIRST_MS - 1;
      expect((await h.rank(REQUEST, words)).ranking).toBe("lexical");
      expect(server.calls.length).toBe(calls); // the endpoint is back, but its back-off has not passed
      clock.ms += 1;
      const back = await h.rank(REQUEST, words);
      expect(back.ranking).toBe("hybrid");
      expect(back.hits[0]!.name).toBe("wetlab-assays");
      expect(back.recovered).toBe("after 30 s by words only");
      expect(server.calls.length).toBeGreaterThan(calls);
      const later = await h.rank(REQUEST, words);
      expect(later.ranking).toBe("hybrid");
      expect(later.recovered).toBeUndefined();
    });
  }

  it("a try after the back-off that fails again doubles the wait, quietly; an answer resets it", async () => {
    server.mode = "error";
    const clock = { ms: 0 };
    const h = ranker(SKILLS, 300, clock);
    const words = lexical();
    const asked = async (atMs: number) => {
      clock.ms = atMs;
      const before = server.calls.length;
      const r = await h.rank(REQUEST, words);
      return { asked: server.calls.length > before, ranking: r.ranking, said: r.fallback ?? r.recovered ?? null };
    };
    expect(await asked(0)).toEqual({ asked: true, ranking: "lexical", said: "embeddings.http: the server answered 500" });
    expect(await asked(30_000)).toEqual({ asked: true, ranking: "lexical", said: null }); // tried, failed: the wait is 60 s now
    expect(await asked(89_999)).toEqual({ asked: false, ranking: "lexical", said: null });
    expect(await asked(90_000)).toEqual({ asked: true, ranking: "lexical", said: null }); // 120 s now
    expect(await asked(209_999)).toEqual({ asked: false, ranking: "lexical", said: null });
    server.mode = "ok";
    expect(await asked(210_000)).toEqual({ asked: true, ranking: "hybrid", said: "after 210 s by words only" });
    // A new outage starts from the first wait again, and is said again.
    server.mode = "error";
    expect(await asked(300_000)).toEqual({ asked: true, ranking: "lexical", said: "embeddings.http: the server answered 500" });
    expect(await asked(330_000)).toEqual({ asked: true, ranking: "lexical", said: null });
  });

  it("another model served under the same name: a wrong dimension until the back-off, then the skills embedded again", async () => {
    const clock = { ms: 0 };
    const h = ranker(SKILLS, 300, clock);
    const words = lexical();
    expect((await h.rank(REQUEST, words)).ranking).toBe("hybrid"); // the skills kept in 4 dimensions
    server.mode = "other-model";
    const first = await h.rank(REQUEST, words);
    expect(first.fallback).toBe("embeddings.dimension: the request's vector has 3 dimensions, the skills' 4");
    server.calls.length = 0;
    clock.ms = RETRY_FIRST_MS;
    const back = await h.rank(REQUEST, words);
    expect(back.ranking).toBe("hybrid");
    expect(back.recovered).toBe("after 30 s by words only");
    expect(server.calls).toEqual([1, 1, 4]); // the request, one skill to see the model changed, the four skills
    // The data home keeps the new model's vectors: a new process embeds only the request.
    server.calls.length = 0;
    expect((await ranker(SKILLS, 300).rank(REQUEST, words)).ranking).toBe("hybrid");
    expect(server.calls).toEqual([1]);
  });

  it("an endpoint whose request vectors stay shorter than its skill vectors stays a failure after the back-off", async () => {
    server.mode = "short-request-vectors";
    const clock = { ms: 0 };
    const h = ranker(SKILLS, 300, clock);
    expect((await h.rank(REQUEST, lexical())).fallback).toMatch(/^embeddings\.dimension/);
    clock.ms = RETRY_FIRST_MS;
    const again = await h.rank(REQUEST, lexical());
    expect(again.ranking).toBe("lexical");
    expect(again.fallback).toBeUndefined();
    clock.ms = RETRY_FIRST_MS + 59_999;
    const calls = server.calls.length;
    expect((await h.rank(REQUEST, lexical())).ranking).toBe("lexical");
    expect(server.calls.length).toBe(calls); // the wait doubled to 60 s
  });

  it("while one ranking tries a silent endpoint again, the others rank by words at once instead of waiting on it", async () => {
    server.mode = "error";
    const clock = { ms: 0 };
    const h = ranker(SKILLS, 300, clock);
    const words = lexical();
    await h.rank(REQUEST, words);
    server.mode = "hang";
    clock.ms = RETRY_FIRST_MS;
    const order: string[] = [];
    const probe = h.rank(REQUEST, words).then((r) => order.push(`probe ${r.ranking}`));
    const other = h.rank(REQUEST, words).then((r) => order.push(`other ${r.ranking}${r.fallback ? " said" : ""}`));
    await Promise.all([probe, other]);
    // The probe waited for its timeout (300 ms); the other answered before it, by words, and said nothing new.
    expect(order).toEqual(["other lexical", "probe lexical"]);
  });
});
