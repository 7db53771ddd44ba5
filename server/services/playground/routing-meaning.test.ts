// A playground turn routes with the agent's one router (issue 36, optional meaning): with an embeddings endpoint in the
// console's settings, the turn's ranking is words and meaning fused (the selection's why names both parts), and a
// failing endpoint is said in the first turn's routing notes only, with words alone choosing. The turn runs in the
// turn worker, a process of its own, against a scripted embeddings server on 127.0.0.1.
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { scriptedEmbeddings, type EmbeddingsServer } from "../../runtime/search/test-support/search";
import type { AgentEvent } from "../../runtime/agent/types";
import { createSession, followTurn, settled, startTurn, type Actor, type TurnDeps, warmTurnWorker } from "./index";
import { playgroundWorld, RELEASE_SKILL } from "./test-support/playground";
import { useTestHome } from "../../test-support/test-home";

const w = useTestHome(playgroundWorld);
const alice: Actor = { id: "alice", role: "author" };
let server: EmbeddingsServer;

beforeAll(async () => {
  server = await scriptedEmbeddings();
  await warmTurnWorker({});
}, 30_000);
afterAll(() => server?.close());
beforeEach(() => w.skill("release-notes", RELEASE_SKILL.frontmatter, RELEASE_SKILL.body, RELEASE_SKILL.files));

async function turn(env: Record<string, string>, sessionId: string): Promise<AgentEvent[]> {
  const deps: TurnDeps = { db: w.db, dataHome: w.dataHome, audit: w.audit, env };
  await startTurn(deps, alice, sessionId, { request: "draft the release notes" });
  const out: AgentEvent[] = [];
  for await (const item of await followTurn(w.db, alice, sessionId)) if ("runId" in item.event) out.push(item.event as AgentEvent);
  await settled(sessionId);
  return out;
}
const started = (events: AgentEvent[]) => events.find((e): e is Extract<AgentEvent, { type: "run_started" }> => e.type === "run_started")!;
const selected = (events: AgentEvent[]) => events.find((e): e is Extract<AgentEvent, { type: "skill_selected" }> => e.type === "skill_selected");

it("fuses meaning with words in a turn, and says once that a failing endpoint left words alone", async () => {
  const s = await createSession(w.db, w.dataHome, alice, {});
  const fused = await turn({ OMNIFORGE_EMBEDDINGS_URL: server.url, OMNIFORGE_EMBEDDINGS_MODEL: "scripted-playground" }, s.id);
  expect(started(fused).routing).toBeUndefined();
  expect(selected(fused)).toMatchObject({ skill: "release-notes" });
  expect(selected(fused)!.reason).toMatch(/found by words #1, meaning #\d \(similarity [01]\.\d\d\)/);
  expect(server.calls.length).toBeGreaterThanOrEqual(2); // the skills, then the request

  server.mode = "error";
  const down = { OMNIFORGE_EMBEDDINGS_URL: server.url, OMNIFORGE_EMBEDDINGS_MODEL: "scripted-playground-down" };
  const first = await turn(down, s.id);
  expect(started(first).routing).toEqual(["the embeddings endpoint failed (embeddings.http: the server answered 500): ranked by words only until it answers again (tried again in 30 s, then less often while it fails)"]);
  expect(selected(first)).toMatchObject({ skill: "release-notes" });
  expect(selected(first)!.reason).not.toMatch(/found by/);
  const second = await turn(down, s.id);
  expect(started(second).routing).toBeUndefined();
});
