// The one ranking on the request set over the real skills (requests.jsonl): the figures it reaches are asserted,
// so a change that makes routing worse fails here. The hold-out part was not looked at while tuning.
import path from "node:path";
import { expect, it } from "vitest";
import { describeNeeding, has, sharedDir, sharedFixture } from "../../test-support/needs";
import { makeLayerConfig } from "../registry/layers";
import { resolveAll } from "../registry/resolve";
import { SkillIndex } from "../registry/skill-index";
import { loadRequests, measureRouting, type RequestCase } from "./evaluate";
import { buildSearch } from "./follow";

const real = path.join(sharedDir, "fixtures", "real-skills");
const fixtures = sharedFixture("fixtures/real-skills");
const present = has(fixtures);

describeNeeding(fixtures, "the one ranking on the request set over the real skills", () => {
  const cases = loadRequests();
  const index = present ? SkillIndex.build(makeLayerConfig({ home: path.join(real, ".no-home"), projectRoot: path.join(real, ".no-project"), catalogDirs: [real] })) : null;
  const entries = index ? resolveAll(index).skills : [];
  const search = buildSearch(entries);
  const byId = new Map(entries.map((e) => [e.id, e]));
  const run = (set: RequestCase[], budget?: number) => measureRouting(entries, search, set, real, budget);

  it("has at least 150 requests written as users type them, 30+ that no skill serves, every expected skill present", () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
    expect(cases.filter((c) => c.expect === null).length).toBeGreaterThanOrEqual(30);
    for (const c of cases) if (c.expect) expect(byId.has(path.join(real, c.expect)), c.expect).toBe(true);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
  });

  // Measured: top-1 94.0%, top-3 99.1%, answered 92.3%, abstain precision 85.7%, recall 66.7% (README; top-1 93.2%,
  // answered 90.6%, precision 82.8% before the broader vocabulary: vocabulary.ts).
  it("ranks the right skill first for 92% of served requests and in the top 3 for 99%; abstains on most requests no skill serves", () => {
    const m = run(cases);
    expect(m.top1).toBeGreaterThanOrEqual(0.923);
    expect(m.top3).toBeGreaterThanOrEqual(0.99);
    expect(m.answered).toBeGreaterThanOrEqual(0.906);
    expect(m.abstainPrecision).toBeGreaterThanOrEqual(0.85);
    expect(m.abstainRecall).toBeGreaterThanOrEqual(0.66);
    // Abstention (abstention.ts): 113 of 117 served answered, abstained on 24 of 36.
    expect(m.single - m.wrongAbstain).toBeGreaterThanOrEqual(113);
    expect(Math.round(m.abstainRecall * m.none)).toBeGreaterThanOrEqual(24);
  });

  // Measured: top-1 93.1%, top-3 96.6%, abstain precision 85.7% (one of its 7 abstentions is a served request it
  // ranks wrong anyway), recall 66.7% (6 of 9).
  it("holds up on the hold-out requests (not used for tuning)", () => {
    const m = run(cases.filter((c) => c.split === "holdout"));
    expect(m.top1).toBeGreaterThanOrEqual(0.93);
    expect(m.top3).toBeGreaterThanOrEqual(0.96);
    expect(m.abstainPrecision).toBeGreaterThanOrEqual(0.85);
    expect(m.abstainRecall).toBeGreaterThanOrEqual(0.66);
    // 28 of 29 served answered, abstained on 6 of 9.
    expect(m.single - m.wrongAbstain).toBeGreaterThanOrEqual(28);
    expect(Math.round(m.abstainRecall * m.none)).toBeGreaterThanOrEqual(6);
  });

  it("the request-ranked listing carries the right skill with its description, also when the budget holds a fraction of the catalog", () => {
    const full = run(cases, 8000);
    expect(full.listed).toBe(1);
    // 2,000 characters hold about a quarter of these skills' descriptions: the listing is ranked then.
    const tight = run(cases, 2000);
    expect(tight.listed).toBeGreaterThanOrEqual(0.98);
  });

  it("explains each result in words: which request words matched which field", () => {
    const r = search.search("vector search in qdrant has bad p99, how do I bring tail latency down");
    expect(r.abstain).toBe(false);
    expect(r.hits[0]!.name).toBe("qdrant-minimize-latency");
    expect(r.hits[0]!.why).toMatch(/^name matches 'qdrant', 'latency'/);
    expect(r.hits[0]!.why).toMatch(/description matches [^;]*'p99'/);
    expect(r.hits[0]!.why).toMatch(/description matches [^;]*'tail'/);
    expect(r.hits[0]!.why).not.toMatch(/phrase/);
    const none = search.search("what's the capital of australia");
    expect(none.abstain).toBe(true);
    expect(none.reason).toBe("no skill's text contains any word of the request");
    // A request of common words only is no evidence for any skill, even when they are all in one description.
    for (const vague of ["please help me", "make something", "use it"]) {
      const r = search.search(vague);
      expect(r.abstain, vague).toBe(true);
    }
    expect(search.search("make something").reason).toMatch(/shares only common words with the request/);
  });
});
