// The measurement behind the choice of full-text library for server/runtime/search (README there): the same
// documents, tokenizer, stemmer and field weights in minisearch, @orama/orama and flexsearch, plain (no
// synonyms, bigrams or name boosts), on the request set over the real skills. Only minisearch is a dependency;
// to rerun: `npm install --no-save @orama/orama@3.1.18 flexsearch@0.8.212 && npx tsx scripts/search-libraries.ts`.
import path from "node:path";
import MiniSearch from "minisearch";
import { makeLayerConfig } from "../server/runtime/registry/layers";
import { resolveAll } from "../server/runtime/registry/resolve";
import { SkillIndex } from "../server/runtime/registry/skill-index";
import { docFor, readBody, type SearchDoc } from "../server/runtime/search/document";
import { loadRequests, measure } from "../server/runtime/search/evaluate";
import { terms } from "../server/runtime/search/text";

const root = path.resolve(process.env.OMNIFORGE_SHARED_DIR ?? path.join(import.meta.dirname, "..", "..", "shared"), "fixtures", "real-skills");
const index = SkillIndex.build(makeLayerConfig({ home: "/nonexistent-home", projectRoot: "/nonexistent-project", catalogDirs: [root] }));
const entries = resolveAll(index).skills;
const docs: SearchDoc[] = entries.map((e) => docFor(e, readBody(e.file)));
const cases = loadRequests();
const BOOST = { nameText: 4, description: 2, headings: 1.5, tags: 2, body: 0.5 } as const;
const FIELDS = Object.keys(BOOST) as (keyof typeof BOOST)[];
const tokenize = (s: string) => terms(s);

async function time<T>(f: () => Promise<T> | T): Promise<[T, number]> {
  const t0 = performance.now();
  const r = await f();
  return [r, Math.round((performance.now() - t0) * 10) / 10];
}

type Ranker = (q: string) => Promise<string[]> | string[];

async function evaluate(name: string, build: () => Promise<Ranker> | Ranker) {
  const [rank, buildMs] = await time(build);
  const answers = new Map<string, string[]>();
  const [, queryMs] = await time(async () => {
    for (const c of cases) answers.set(c.request, await rank(c.request));
  });
  const m = measure(cases, root, (q) => ({ dirs: answers.get(q)!, abstain: false }));
  return { library: name, top1: m.top1, top3: m.top3, indexMs: buildMs, queriesMs: queryMs, perQueryMs: Math.round((queryMs / cases.length) * 100) / 100 };
}

const results = [];
results.push(
  await evaluate("minisearch", () => {
    const ms = new MiniSearch<SearchDoc>({ fields: FIELDS, tokenize, processTerm: (t) => t, idField: "id" });
    ms.addAll(docs);
    return (q) => ms.search(q, { boost: BOOST }).map((r) => r.id as string);
  }),
);

try {
  const orama = await import("@orama/orama" as string);
  results.push(
    await evaluate("@orama/orama", async () => {
      const db = await orama.create({
        schema: { id: "string", nameText: "string", description: "string", headings: "string", tags: "string", body: "string" },
        components: { tokenizer: { language: "english", normalizationCache: new Map(), tokenize: (raw: string, _l: string, prop?: string) => (prop === "id" ? [raw] : tokenize(raw)) } },
      });
      await orama.insertMultiple(db, docs.map((d) => ({ id: d.id, nameText: d.nameText, description: d.description, headings: d.headings, tags: d.tags, body: d.body })));
      return async (q: string) => {
        const r = await orama.search(db, { term: q, properties: FIELDS, boost: BOOST, limit: 50, threshold: 1 });
        return r.hits.map((h: { document: { id: string } }) => h.document.id);
      };
    }),
  );
} catch (e) {
  results.push({ library: "@orama/orama", skipped: (e as Error).message.split("\n")[0] });
}

try {
  const flex = (await import("flexsearch" as string)) as { default?: unknown; Index: new (o: unknown) => { add(id: number, s: string): void; search(q: string, o: unknown): number[] } };
  const Index = flex.Index ?? (flex.default as typeof flex).Index;
  results.push(
    await evaluate("flexsearch", () => {
      // flexsearch keeps no term statistics: fields are merged by weighted reciprocal rank.
      const byField = FIELDS.map((f) => {
        const ix = new Index({ encode: tokenize, tokenize: "strict", resolution: 9 });
        docs.forEach((d, i) => ix.add(i, d[f]));
        return { f, ix };
      });
      return (q: string) => {
        const score = new Map<number, number>();
        for (const { f, ix } of byField) {
          ix.search(q, { limit: 100, suggest: true }).forEach((id, rank) => score.set(id, (score.get(id) ?? 0) + BOOST[f] / (rank + 1)));
        }
        return [...score].sort((a, b) => b[1] - a[1]).map(([i]) => docs[i]!.id);
      };
    }),
  );
} catch (e) {
  results.push({ library: "flexsearch", skipped: (e as Error).message.split("\n")[0] });
}

console.log(JSON.stringify({ skills: docs.length, requests: cases.length, results }, null, 2));
