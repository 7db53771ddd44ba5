// The offline provider routes with the one ranking (issue 36): over the 591-skill catalog installed as eight plugins,
// `agent run --provider offline` activates exactly the skill search ranks first, and nothing when search abstains,
// so it activates the right skill as often as search ranks it first and answers (the hold-outs, the second and sixth sets).
// One step per request: the selection and the activation, not the skill's own work (the catalog holds SKILL.md only).
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { MemoryAuditSink } from "../audit/events";
import { describeNeeding, sharedDir, sharedFixture } from "../../test-support/needs";
import { resolveAll } from "../registry/resolve";
import { SkillIndex } from "../registry/skill-index";
import { installCatalog, installedDir } from "../search/catalog";
import { CATALOG_REQUESTS_2_FILE, CATALOG_REQUESTS_3_FILE, CATALOG_REQUESTS_6_FILE, CATALOG_REQUESTS_FILE, loadRequests, type RequestCase } from "../search/evaluate";
import { searchFor } from "../search/follow";
import { runAgent } from "./loop";
import { OfflineProvider } from "./offline";
import { makeAgentWorld, ofType, useRealRunner, type AgentWorld } from "./test-support/agent";

describeNeeding(sharedFixture("fixtures/catalog/SOURCES.md"), "the offline provider over the 591-skill catalog", () => {
  const sandbox = useRealRunner();
  let world: AgentWorld;
  let index: SkillIndex;
  beforeAll(() => {
    world = makeAgentWorld();
    installCatalog(path.join(sharedDir, "fixtures", "catalog"), world.home);
    index = SkillIndex.build(world.config);
    return () => world.cleanup();
  });

  /** Runs each request offline and counts the right activations beside the right first ranks that do not abstain. */
  async function agreement(cases: RequestCase[]) {
    const entries = resolveAll(index).skills.filter((e) => e.loadable);
    const search = searchFor(index);
    const only = new Set(entries.map((e) => e.id));
    const nameOf = new Map(entries.map((e) => [e.dir, e.name]));
    let activatedRight = 0;
    let rankedFirstAndAnswered = 0;
    for (const c of cases) {
      const ranked = search.search(c.request, { limit: 1, only });
      const result = await runAgent({
        request: c.request,
        mode: "tool",
        provider: new OfflineProvider(),
        skills: { index },
        runner: sandbox.runner,
        audit: new MemoryAuditSink(),
        scratchDir: world.scratch,
        sessionId: `sess-${c.id}`,
        userId: "alice",
        stepLimit: 1,
      });
      const activated = ofType(result.events, "skill_activated").map((e) => e.skill);
      expect(activated, c.id).toEqual(ranked.abstain ? [] : [ranked.hits[0]!.name]);
      const right = new Set([c.expect, ...(c.also ?? [])].filter((r): r is string => !!r).map((r) => nameOf.get(installedDir(world.home, r))));
      if (activated.length && right.has(activated[0])) activatedRight++;
      if (!ranked.abstain && ranked.hits[0] && right.has(ranked.hits[0].name)) rankedFirstAndAnswered++;
    }
    return { activatedRight, rankedFirstAndAnswered };
  }

  // The held-out quarters of the first and third catalog sets (88 and 53 requests).
  it("activates the skill search ranks first (none when it abstains) for every held-out request", async () => {
    const { activatedRight, rankedFirstAndAnswered } = await agreement([...loadRequests(CATALOG_REQUESTS_FILE), ...loadRequests(CATALOG_REQUESTS_3_FILE)].filter((c) => c.split === "holdout"));
    expect(activatedRight).toBe(rankedFirstAndAnswered);
    // Measured: right for 105 of the 116 served held-out requests, each one search ranks first without abstaining.
    expect(activatedRight).toBeGreaterThanOrEqual(105);
  }, 180_000);

  // The second set (160 requests, all held out, the hardest): the same agreement; its accuracy is the bench's to show.
  it("agrees with search on every request of the second catalog set too", async () => {
    const { activatedRight, rankedFirstAndAnswered } = await agreement(loadRequests(CATALOG_REQUESTS_2_FILE));
    // Measured when written: 69 of the 120 served requests on both sides (75 since the pair bonus went).
    expect(activatedRight).toBe(rankedFirstAndAnswered);
  }, 180_000);

  // The sixth set (255 requests over skills drawn at random, held out whole: the nearest to issue 36's hidden set).
  it("agrees with search on the sixth catalog set, its skills drawn at random", async () => {
    const { activatedRight, rankedFirstAndAnswered } = await agreement(loadRequests(CATALOG_REQUESTS_6_FILE));
    expect(activatedRight).toBe(rankedFirstAndAnswered);
    // Measured once: right for 162 of its 210 served requests (ranked first for 174, 12 of them abstained on).
    expect(activatedRight).toBeGreaterThanOrEqual(162);
  }, 180_000);
});
