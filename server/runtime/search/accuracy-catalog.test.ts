// The one ranking at catalog scale: the 591 public skills of shared/fixtures/catalog installed as eight plugins (one
// per repository, as users install them), and seven request sets over it (catalog-requests*.jsonl). The figures it
// reaches are asserted, so a change that makes routing at scale worse fails here; the hold-out quarters were not
// looked at while tuning, and the second and the fourth to seventh sets are held out whole.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { describeNeeding, sharedDir, sharedFixture } from "../../test-support/needs";
import { useTestHome } from "../../test-support/test-home";
import { makeLayerConfig } from "../registry/layers";
import { resolveAll } from "../registry/resolve";
import { SkillIndex } from "../registry/skill-index";
import type { SkillEntry } from "../registry/types";
import { installCatalog, installedDir } from "./catalog";
import type { SkillSearch } from "./engine";
import { CATALOG_REQUESTS_2_FILE, CATALOG_REQUESTS_3_FILE, CATALOG_REQUESTS_4_FILE, CATALOG_REQUESTS_5_FILE, CATALOG_REQUESTS_6_FILE, CATALOG_REQUESTS_7_FILE, CATALOG_REQUESTS_FILE, loadRequests, measureRouting, type RequestCase } from "./evaluate";
import { buildSearch } from "./follow";

const catalog = path.join(sharedDir, "fixtures", "catalog");

describeNeeding(sharedFixture("fixtures/catalog/SOURCES.md"), "the one ranking over the 591-skill catalog installed as plugins", () => {
  const t = useTestHome(() => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "of-catalog-"));
    return { home: path.join(base, "home"), project: path.join(base, "project"), cleanup: () => fs.rmSync(base, { recursive: true, force: true }) };
  }, { once: true });
  const cases = loadRequests(CATALOG_REQUESTS_FILE);
  let entries: SkillEntry[] = [];
  let search: SkillSearch;
  const run = (set: RequestCase[], budget?: number) => measureRouting(entries, search, set, (rel) => installedDir(t.home, rel), budget);

  beforeAll(() => {
    installCatalog(catalog, t.home);
    entries = resolveAll(SkillIndex.build(makeLayerConfig({ home: t.home, projectRoot: t.project }))).skills.filter((e) => e.loadable);
    search = buildSearch(entries);
  });

  it("has 300+ requests, a third each direct, paraphrase and symptom, 30+ no skill serves, a quarter held out, every skill named present", () => {
    expect(entries.length).toBeGreaterThanOrEqual(580);
    expect(cases.length).toBeGreaterThanOrEqual(300);
    const kinds = (k: string) => cases.filter((c) => c.kind === k).length;
    expect(kinds("none")).toBeGreaterThanOrEqual(30);
    for (const k of ["direct", "paraphrase", "symptom"]) expect(kinds(k), k).toBeGreaterThanOrEqual(cases.length / 4);
    // The split is fixed by position (every fourth), chosen before any tuning.
    cases.forEach((c, i) => expect(c.split, c.id).toBe(i % 4 === 3 ? "holdout" : "tune"));
    for (const c of cases) for (const rel of [c.expect, ...(c.also ?? [])]) if (rel) expect(fs.existsSync(path.join(catalog, rel, "SKILL.md")), rel).toBe(true);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
  });

  // Measured: top-1 92.1%, top-3 98.7%, listed 100%, 2 of 76 served abstained, abstain recall 10 of 12.
  it("on the held-out quarter: the right skill first for 92%, in the top 3 for 98%, listed with its description in 8,000 characters", () => {
    const m = run(cases.filter((c) => c.split === "holdout"), 8000);
    expect(m.top1).toBeGreaterThanOrEqual(0.92);
    expect(m.top3).toBeGreaterThanOrEqual(0.98);
    expect(m.listed).toBeGreaterThanOrEqual(0.98);
    expect(m.single - m.wrongAbstain).toBeGreaterThanOrEqual(0.95 * m.single);
    expect(Math.round(m.abstainRecall * m.none)).toBeGreaterThanOrEqual(10);
  });

  // Measured: top-1 89.2%, top-3 96.4%, listed 99.3%, abstain recall 82% at precision 82%, 7 of 305 served abstained
  // (top-1 88.9% and 9 abstained before the broader vocabulary: vocabulary.ts).
  it("on all requests: first for 88.8%, top 3 for 96%, abstains on most no-skill requests while answering 95%+ of served ones", () => {
    const m = run(cases, 8000);
    expect(m.top1).toBeGreaterThanOrEqual(0.888);
    expect(m.top3).toBeGreaterThanOrEqual(0.96);
    expect(m.listed).toBeGreaterThanOrEqual(0.99);
    expect(m.single - m.wrongAbstain).toBeGreaterThanOrEqual(0.95 * m.single);
    expect(m.abstainRecall).toBeGreaterThanOrEqual(0.8);
    expect(m.abstainPrecision).toBeGreaterThanOrEqual(0.82);
  });

  // The abstention's operating point (server/runtime/search/abstention.ts), where it was set: the tune parts of the
  // first and third sets together answer 342 of 358 served requests and abstain on 57 of 70 no-skill ones. Measured on
  // the first set's tune part: 222 of 229 served answered, abstained on 31 of 38; 224 answered with the broader
  // vocabulary (vocabulary.ts).
  it("on the first set's tune part: answers 224 of 229 served, abstains on 32 of 38", () => {
    const m = run(cases.filter((c) => c.split === "tune"));
    expect(m.single - m.wrongAbstain).toBeGreaterThanOrEqual(224);
    expect(Math.round(m.abstainRecall * m.none)).toBeGreaterThanOrEqual(32);
  });

  // The second set (all held out, written apart from the tuning, harder: indirect, short, typos, inside longer
  // messages). Measured: top-1 65.8%, top-3 80.8%, listed 99.2%, 95 of 120 served answered, abstained on 34 of 40.
  describe("the second, harder request set", () => {
    const second = loadRequests(CATALOG_REQUESTS_2_FILE);

    it("has 160 requests, 40 that no skill serves, all held out, every skill named present", () => {
      expect(second.length).toBe(160);
      expect(second.filter((c) => c.expect === null).length).toBe(40);
      for (const c of second) {
        expect(c.split, c.id).toBe("holdout");
        expect(c.request.split(/\s+/).length, c.id).toBeLessThanOrEqual(32);
        for (const rel of [c.expect, ...(c.also ?? [])]) if (rel) expect(fs.existsSync(path.join(catalog, rel, "SKILL.md")), rel).toBe(true);
      }
      expect(new Set([...cases, ...second].map((c) => c.id)).size).toBe(cases.length + second.length);
    });

    // With the broader vocabulary (vocabulary.ts): top-3 81.7%, 97 of 120 answered, abstained on 35 of 40.
    it("does not fall below what it reaches: first for 70.8%, top 3 for 82.5%, listed 99%, answers 99 of 120, abstains on 33 of 40", () => {
      const m = run(second, 8000);
      expect(m.top1).toBeGreaterThanOrEqual(0.708);
      expect(m.top3).toBeGreaterThanOrEqual(0.825);
      expect(m.listed).toBeGreaterThanOrEqual(0.99);
      expect(m.single - m.wrongAbstain).toBeGreaterThanOrEqual(99);
      expect(Math.round(m.abstainRecall * m.none)).toBeGreaterThanOrEqual(33);
    });
  });

  // The third set (written as the hidden set of issue 36 is: a third each direct, paraphrase and symptom, 10-40
  // words; committed before it was first measured). Its tune part is tuned on with the first set's; every fourth
  // request is held out.
  describe("the third request set", () => {
    const third = loadRequests(CATALOG_REQUESTS_3_FILE);

    it("has 200+ requests, a third each direct, paraphrase and symptom, 40+ no skill serves, every fourth held out, 10-40 words", () => {
      expect(third.length).toBeGreaterThanOrEqual(200);
      const kinds = (k: string) => third.filter((c) => c.kind === k).length;
      expect(kinds("none")).toBeGreaterThanOrEqual(40);
      for (const k of ["direct", "paraphrase", "symptom"]) expect(kinds(k), k).toBeGreaterThanOrEqual(third.length / 4);
      third.forEach((c, i) => {
        expect(c.split, c.id).toBe(i % 4 === 3 ? "holdout" : "tune");
        expect(c.request.split(/\s+/).length, c.id).toBeGreaterThanOrEqual(10);
        expect(c.request.split(/\s+/).length, c.id).toBeLessThanOrEqual(40);
        expect(c.expect === null, c.id).toBe(c.kind === "none");
        for (const rel of [c.expect, ...(c.also ?? [])]) if (rel) expect(fs.existsSync(path.join(catalog, rel, "SKILL.md")), rel).toBe(true);
      });
      const all = [...cases, ...loadRequests(CATALOG_REQUESTS_2_FILE), ...third];
      expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
    });

    // Measured: top-1 87.5%, top-3 92.5%, listed 97.5%, 37 of 40 served answered, abstained on 10 of 13.
    it("on its held-out quarter: first for 90%, top 3 for 92%, listed 97%, answers 37 of 40 served, abstains on 9 of 13", () => {
      const m = run(third.filter((c) => c.split === "holdout"), 8000);
      expect(m.top1).toBeGreaterThanOrEqual(0.9);
      expect(m.top3).toBeGreaterThanOrEqual(0.925);
      expect(m.listed).toBeGreaterThanOrEqual(0.975);
      expect(m.single - m.wrongAbstain).toBeGreaterThanOrEqual(37);
      expect(Math.round(m.abstainRecall * m.none)).toBeGreaterThanOrEqual(9);
    });

    // Measured: top-1 89.1%, top-3 94.6%, listed 98.4%, 121 of 129 served answered, abstained on 26 of 32 (top-3 92.2%
    // and 120 answered before lead-ins were read apart: preamble.ts; top-1 88.4%, top-3 93.0% before the broader
    // vocabulary: vocabulary.ts).
    it("on its tune part: first for 89%, top 3 for 96%, listed 98%, answers 121 of 129 served, abstains on 26 of 32", () => {
      const m = run(third.filter((c) => c.split === "tune"), 8000);
      expect(m.top1).toBeGreaterThanOrEqual(0.891);
      expect(m.top3).toBeGreaterThanOrEqual(0.961);
      expect(m.listed).toBeGreaterThanOrEqual(0.984);
      expect(m.single - m.wrongAbstain).toBeGreaterThanOrEqual(121);
      expect(Math.round(m.abstainRecall * m.none)).toBeGreaterThanOrEqual(26);
    });
  });

  // The fourth set: written as the hidden set of issue 36 is, by an engineer who had not seen the tuning, and committed
  // before the ranking was first measured on it. All of it is held out; the figures below are what the ranking reached
  // on its first run, less a point, and no weight or threshold is chosen on it.
  describe("the fourth request set, held out whole", () => {
    const fourth = loadRequests(CATALOG_REQUESTS_4_FILE);
    const words = (c: RequestCase) => c.request.split(/\s+/).length;

    it("has 240 requests: 200 served, a third each direct, paraphrase and symptom, 40 no skill serves, all held out, 10-40 words, every skill named present", () => {
      expect(fourth.length).toBe(240);
      const kinds = (k: string) => fourth.filter((c) => c.kind === k).length;
      expect(kinds("none")).toBe(40);
      for (const k of ["direct", "paraphrase", "symptom"]) expect(kinds(k), k).toBeGreaterThanOrEqual(66);
      for (const c of fourth) {
        expect(c.split, c.id).toBe("holdout");
        expect(words(c), c.id).toBeGreaterThanOrEqual(10);
        expect(words(c), c.id).toBeLessThanOrEqual(40);
        expect(c.expect === null, c.id).toBe(c.kind === "none");
        expect(c.also ?? [], c.id).not.toContain(c.expect);
        for (const rel of [c.expect, ...(c.also ?? [])]) if (rel) expect(fs.existsSync(path.join(catalog, rel, "SKILL.md")), `${c.id}: ${rel}`).toBe(true);
      }
      // Every one of the eight repositories has its served requests.
      expect(new Set(fourth.filter((c) => c.expect).map((c) => c.expect!.split("/")[0])).size).toBe(8);
      const all = [...cases, ...loadRequests(CATALOG_REQUESTS_2_FILE), ...loadRequests(CATALOG_REQUESTS_3_FILE), ...fourth];
      expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
    });

    // Measured on the first run: top-1 83.0%, top-3 92.5%, listed 99.0%, 169 of 200 served answered, abstained on 28
    // of 40 (precision 47%). With the broader vocabulary (vocabulary.ts): 172 answered, abstained on 29, top-3 92.0%.
    it("does not fall below what it first reached: first for 85%, top 3 for 92.5%, listed 98%, answers 174 of 200, abstains on 29 of 40", () => {
      const m = run(fourth, 8000);
      expect(m.top1).toBeGreaterThanOrEqual(0.85);
      expect(m.top3).toBeGreaterThanOrEqual(0.925);
      expect(m.listed).toBeGreaterThanOrEqual(0.98);
      expect(m.single - m.wrongAbstain).toBeGreaterThanOrEqual(174);
      expect(Math.round(m.abstainRecall * m.none)).toBeGreaterThanOrEqual(29);
    });
  });

  // The fifth to seventh sets: 210 skills drawn at random before any request was written (scripts/sample-request-set.ts,
  // seeds 5, 6 and 7), so skills that are hard to ask for count as often as easy ones; each committed before the
  // ranking was measured on it, held out whole, nothing chosen on it. Their shape checks are tests of their own (the
  // sixth's and seventh's ran, ranking nothing, before their one measure); the last test holds what each reached, less
  // a request (README "The fifth catalog set" and after).
  const drawn = [
    // First run: 73.3% (154) / 87.1% (183), listed 202, 173 answered, 32 abstained; careful lexical 80.5% / 87.6%.
    // Without the pair bonus (docs/search-tuning.md, "the pair bonus removed"): 166 / 183, listed 202, 174 answered, 33 abstained.
    { name: "fifth", file: CATALOG_REQUESTS_5_FILE, prefix: "g", floors: { top1: 166, top3: 183, listed: 201, answered: 174, abstained: 33 } },
    // Measured once, after the pair bonus went: 174 (82.9%) / 195, listed 206, 185 answered, 32 abstained. With the
    // pair bonus: 163 / 188, 188 answered, 35 abstained. Careful lexical: 81.9% / 91.9%.
    { name: "sixth", file: CATALOG_REQUESTS_6_FILE, prefix: "h", floors: { top1: 173, top3: 194, listed: 205, answered: 184, abstained: 31 } },
    // Measured once, on the same ranking: 178 (84.8%) / 194, listed 210, 179 answered, 34 abstained. With the pair
    // bonus: 168 / 188. Careful lexical: 174 / 194.
    { name: "seventh", file: CATALOG_REQUESTS_7_FILE, prefix: "i", floors: { top1: 177, top3: 193, listed: 209, answered: 178, abstained: 33 } },
  ];
  for (const { name, file, prefix, floors } of drawn) {
    describe(`the ${name} request set, sampled then written, held out whole`, () => {
      const set = loadRequests(file);
      const served = set.filter((c) => c.expect !== null);

      it("has 255 requests: 70 each direct, paraphrase and symptom, 45 no skill serves, all held out", () => {
        expect(set.length).toBe(255);
        const kinds = (k: string) => set.filter((c) => c.kind === k).length;
        expect(kinds("none")).toBe(45);
        for (const k of ["direct", "paraphrase", "symptom"]) expect(kinds(k), k).toBe(70);
        for (const c of set) {
          expect(c.id, c.id).toMatch(new RegExp(`^${prefix}\\d{3}$`));
          expect(c.split, c.id).toBe("holdout");
          expect(c.expect === null, c.id).toBe(c.kind === "none");
        }
      });

      it("every request is 10-40 words", () => {
        for (const c of set) expect(c.request.split(/\s+/).length, c.id).toBeGreaterThanOrEqual(10);
        for (const c of set) expect(c.request.split(/\s+/).length, c.id).toBeLessThanOrEqual(40);
      });

      it("asks for 210 different skills, each expected and equally good folder a SKILL.md of the catalog", () => {
        // Drawn without replacement: no skill is asked for twice.
        expect(new Set(served.map((c) => c.expect)).size).toBe(210);
        for (const c of served) {
          expect(c.also ?? [], c.id).not.toContain(c.expect);
          for (const rel of [c.expect, ...(c.also ?? [])]) expect(fs.existsSync(path.join(catalog, rel!, "SKILL.md")), `${c.id}: ${rel}`).toBe(true);
        }
      });

      it(`does not fall below what it reached, less one request: first for ${floors.top1} of 210, top 3 for ${floors.top3}, listed ${floors.listed}, answers ${floors.answered}, abstains on ${floors.abstained} of 45`, () => {
        const m = run(set, 8000);
        const of = (x: number | undefined) => Math.round((x ?? 0) * m.single);
        expect(m.single).toBe(210);
        expect(of(m.top1)).toBeGreaterThanOrEqual(floors.top1);
        expect(of(m.top3)).toBeGreaterThanOrEqual(floors.top3);
        expect(of(m.listed)).toBeGreaterThanOrEqual(floors.listed);
        expect(m.single - m.wrongAbstain).toBeGreaterThanOrEqual(floors.answered);
        expect(Math.round(m.abstainRecall * m.none)).toBeGreaterThanOrEqual(floors.abstained);
      });
    });
  }

  it("no two requests of the seven sets share an id", () => {
    const files = [CATALOG_REQUESTS_2_FILE, CATALOG_REQUESTS_3_FILE, CATALOG_REQUESTS_4_FILE, ...drawn.map((d) => d.file)];
    const all = [...cases, ...files.flatMap((f) => loadRequests(f))];
    expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
  });

  it("a typo in a rare word still finds the skill, and the why says how it read the word", () => {
    const r = search.search("a heirarchical model of test scores across schools, sampled with nuts");
    expect(r.hits[0]!.name).toBe("pymc");
    expect(r.hits[0]!.why).toMatch(/description matches [^;]*'heirarchical' \(read as 'hierarchical'\)/);
  });
});
