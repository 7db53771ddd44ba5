// A skill's `model` field in the playground (#14 §4): activating it runs the rest of the turn with that model when
// its provider is configured, and says so (to the person and the model) when not. A scripted OpenAI-compatible
// server on 127.0.0.1 records which model each call asked for.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { scriptedOpenAiServer, type ScriptedServer } from "../../runtime/agent/test-support/agent";
import { createSession, followTurn, settled, startTurn, type Actor, type StreamItem, type TurnDeps } from "./index";
import { playgroundWorld } from "./test-support/playground";
import { useTestHome } from "../../test-support/test-home";

const w = useTestHome(playgroundWorld);
let server: ScriptedServer | undefined;
const alice: Actor = { id: "alice", role: "author" };

beforeEach(() => {
  w.skill("deep-review", "description: Review a design in depth. Use when a design needs a careful review.\nmodel: big-model-2", "# Deep review\n\nThink hard.\n");
  w.skill("claude-writer", "description: Write long prose. Use when an essay is needed.\nmodel: claude-opus-4", "# Writer\n\nWrite well.\n");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function turnEvents(env: Record<string, string | undefined>, skill: string) {
  server = await scriptedOpenAiServer([{ toolCalls: [{ name: "skill", arguments: { name: skill } }] }, { content: "Done." }]);
  const full = { ...env, OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "test-key", OMNIFORGE_MODEL: "small-model" };
  const s = await createSession(w.db, w.dataHome, alice, { provider: "openai" }, full);
  const deps: TurnDeps = { db: w.db, dataHome: w.dataHome, audit: w.audit, env: full };
  await startTurn(deps, alice, s.id, { request: `use ${skill}` });
  const out: StreamItem[] = [];
  for await (const item of (await followTurn(w.db, alice, s.id))) out.push(item);
  await settled(s.id);
  return out.map((i) => i.event);
}

describe("a skill's model field", () => {
  it("runs the rest of the turn with the skill's model when its provider is configured", async () => {
    const events = await turnEvents({}, "deep-review");
    expect(server!.requests.map((r) => r.model)).toEqual(["small-model", "big-model-2"]);
    expect(events.find((e) => e.type === "skill_model")).toMatchObject({ skill: "deep-review", model: "big-model-2", used: true, provider: "openai" });
    const result = events.find((e) => e.type === "tool_result");
    expect(result).toMatchObject({ ok: true });
    expect((result as { output: string }).output).toMatch(/the rest of this turn runs with openai big-model-2 \(was small-model\)/);
  });

  it("says so and keeps the session's model when that provider is not configured", async () => {
    const events = await turnEvents({}, "claude-writer");
    expect(server!.requests.map((r) => r.model)).toEqual(["small-model", "small-model"]);
    const ev = events.find((e) => e.type === "skill_model") as { used: boolean; detail: string } | undefined;
    expect(ev).toMatchObject({ used: false });
    expect(ev!.detail).toBe("Skill 'claude-writer' asks for the model claude-opus-4, which is not available: the anthropic provider is not configured here (ANTHROPIC_API_KEY is not set). This turn stays on small-model.");
  });
});
