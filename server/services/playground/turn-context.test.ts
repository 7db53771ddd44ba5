// What a turn starts from (turn-context.ts): the session's rows read without their records, each record's facts read
// once. Against the scripted OpenAI-compatible server, so the conversation checked is the one the model was sent.
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { playgroundMessages } from "../../../db/schema";
import { scriptedOpenAiServer, type ChatRequestBody, type ScriptedServer } from "../../runtime/agent/test-support/agent";
import { createSession, followTurn, listMessages, settled, startTurn, type Actor, type TurnDeps } from "./index";
import { appendMessage } from "./sessions";
import { turnContext } from "./turn-context";
import { playgroundWorld } from "./test-support/playground";
import { useTestHome } from "../../test-support/test-home";

const w = useTestHome(playgroundWorld);
let server: ScriptedServer | undefined;
const alice: Actor = { id: "alice", role: "author" };

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function turn(env: Record<string, string>, sessionId: string, request: string) {
  const deps: TurnDeps = { db: w.db, dataHome: w.dataHome, audit: w.audit, env };
  await startTurn(deps, alice, sessionId, { request });
  for await (const _ of (await followTurn(w.db, alice, sessionId))) void _;
  await settled(sessionId);
}

const conversation = (b: ChatRequestBody) => b.messages.filter((m) => m.role === "user" || m.role === "assistant").map((m) => `${m.role}: ${String(m.content)}`);

describe("what a turn starts from", () => {
  it("rows another server wrote: the requests, the answers that answered, the last orchestrated skills, the next turn, a replay's request", async () => {
    const s = await createSession(w.db, w.dataHome, alice, {});
    await appendMessage(w.db, s.id, 1, "user", "first request", { mode: "orchestrated" });
    await appendMessage(w.db, s.id, 1, "assistant", "first answer", { mode: "orchestrated", provider: "offline", model: "m", reason: "answered", events: [], activeSkills: ["release-notes"] });
    await appendMessage(w.db, s.id, 2, "user", "second request", { mode: "tool" });
    await appendMessage(w.db, s.id, 2, "assistant", "(The turn failed: down.)", { mode: "tool", provider: "offline", model: "m", reason: "error", events: [], error: "down" });
    await appendMessage(w.db, s.id, 3, "user", "third request", { mode: "orchestrated" });
    await appendMessage(w.db, s.id, 3, "assistant", "third answer", { mode: "orchestrated", provider: "offline", model: "m", reason: "answered", events: [], activeSkills: [] });

    const c = await turnContext(w.db, s.id);
    expect(c.nextTurn).toBe(4);
    expect(c.history().map((m) => `${m.role}: ${m.content}`)).toEqual(["user: first request", "assistant: first answer", "user: second request", "user: third request", "assistant: third answer"]);
    expect(c.activeSkills()).toEqual([]);
    // A replay of turn 3 starts from the conversation and the skills before it.
    expect(c.requestOf(3)).toBe("third request");
    expect(c.history(3)).toHaveLength(3);
    expect(c.activeSkills(3)).toEqual(["release-notes"]);
    expect(c.requestOf(9)).toBeUndefined();
  });

  it("reads an answer's record once: the next turn on this server does not read it back", async () => {
    server = await scriptedOpenAiServer([{ content: "first answer" }, { content: "second answer" }]);
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "k" };
    const s = await createSession(w.db, w.dataHome, alice, { provider: "openai" }, env);
    await turn(env, s.id, "first request");
    // The stored record is no longer readable: a turn that read it again would take the answer for a failure and
    // leave it out of the conversation.
    await w.db.update(playgroundMessages).set({ events: "{ not json" }).where(eq(playgroundMessages.sessionId, s.id));
    await turn(env, s.id, "second request");
    expect(conversation(server.requests[1]!)).toEqual(["user: first request", "assistant: first answer", "user: second request"]);
    expect((await listMessages(w.db, s.id)).map((m) => m.content)).toEqual(["first request", "first answer", "second request", "second answer"]);
  });
});
