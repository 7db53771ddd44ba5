// A playground session's active_skills (spec 004) across turns, against the scripted OpenAI-compatible server:
// loaded skills stay until skills.unload (kept in the turn records, so a restart keeps them), and the cap on
// loaded skills is the OMNIFORGE_MAX_LOADED_SKILLS setting.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { scriptedOpenAiServer, systemOf, type ChatRequestBody, type ScriptedServer } from "../../runtime/agent/test-support/agent";
import { createSession, followTurn, listMessages, settled, startTurn, type Actor, type TurnDeps } from "./index";
import { NOSY_SKILL, playgroundWorld, RELEASE_SKILL } from "./test-support/playground";
import { useTestHome } from "../../test-support/test-home";

const w = useTestHome(playgroundWorld);
let server: ScriptedServer | undefined;
const alice: Actor = { id: "alice", role: "author" };

beforeEach(() => {
  w.skill("release-notes", RELEASE_SKILL.frontmatter, RELEASE_SKILL.body, RELEASE_SKILL.files);
  w.skill("env-inspector", NOSY_SKILL.frontmatter, NOSY_SKILL.body);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function turn(env: Record<string, string>, sessionId: string, request: string, mode?: "tool" | "orchestrated") {
  const deps: TurnDeps = { db: w.db, dataHome: w.dataHome, audit: w.audit, env };
  await startTurn(deps, alice, sessionId, { request, ...(mode ? { mode } : {}) });
  for await (const _ of (await followTurn(w.db, alice, sessionId))) void _;
  await settled(sessionId);
  return (await listMessages(w.db, sessionId)).at(-1)!;
}

const toolOutputs = (b: ChatRequestBody) => b.messages.filter((m) => m.role === "tool").map((m) => String(m.content));

describe("a playground session's active_skills", () => {
  it("persist across turns until skills.unload, and the cap is a setting", async () => {
    const replies = [
      // turn 1
      { toolCalls: [{ name: "skills_load", arguments: { names: ["release-notes"] } }] },
      { content: "loaded" },
      // turn 2 (a tool-mode turn leaves them as they were)
      { content: "tool-mode answer" },
      // turn 3: still injected on the first call; one more is over the cap of 1
      { toolCalls: [{ name: "skills_load", arguments: { names: ["env-inspector"], mode: "add" } }] },
      { content: "capped" },
      // turn 4: unload
      { toolCalls: [{ name: "skills_unload", arguments: { all: true } }] },
      { content: "unloaded" },
      // turn 5
      { content: "nothing loaded" },
    ];
    server = await scriptedOpenAiServer(replies);
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "k", OMNIFORGE_MAX_LOADED_SKILLS: "1" };
    const s = await createSession(w.db, w.dataHome, alice, { provider: "openai", mode: "orchestrated" }, env);

    expect((await turn(env, s.id, "draft the release notes")).record).toMatchObject({ reason: "answered", activeSkills: ["release-notes"] });
    expect(systemOf(server.requests[1]!)).toContain("Collect the changes");

    const toolTurn = await turn(env, s.id, "anything else?", "tool");
    expect(toolTurn.record?.activeSkills).toBeUndefined();

    const third = await turn(env, s.id, "also inspect the environment");
    expect(systemOf(server.requests[3]!)).toContain(`<skill name="release-notes"`);
    expect(toolOutputs(server.requests[4]!).at(-1)).toContain("Too many skills: 2 would be loaded at once, the limit is 1. Nothing was loaded.");
    expect(third.record).toMatchObject({ activeSkills: ["release-notes"] });

    expect((await turn(env, s.id, "drop it")).record).toMatchObject({ activeSkills: [] });
    await turn(env, s.id, "and now?");
    expect(systemOf(server.requests[7]!)).not.toContain("</active_skills>");
  });
});
