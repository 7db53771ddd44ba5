// A playground turn with skills off (issue 37 item 4): OMNIFORGE_SKILLS_ENABLED=0 over config.yaml, or
// skills.enabled: false in it, sends the model no listing, no skill tool and no word about skills. A scripted
// OpenAI-compatible server on 127.0.0.1 records what each call was sent.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { scriptedOpenAiServer, systemOf, toolNames, type ScriptedServer } from "../../runtime/agent/test-support/agent";
import { createSession, followTurn, settled, startTurn, type Actor, type TurnDeps } from "./index";
import { playgroundWorld } from "./test-support/playground";
import { useTestHome } from "../../test-support/test-home";

const w = useTestHome(playgroundWorld);
let server: ScriptedServer | undefined;
const alice: Actor = { id: "alice", role: "author" };

beforeEach(() => {
  w.skill("release-notes", "description: Draft release notes. Use when a release needs notes. LISTED-MARK", "# Notes\n");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  fs.rmSync(path.join(w.dataHome.home, "config.yaml"), { force: true });
});

async function firstCall(env: Record<string, string | undefined>) {
  server = await scriptedOpenAiServer([{ content: "Plain answer." }]);
  const full = { ...env, OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "test-key", OMNIFORGE_MODEL: "small-model" };
  const s = await createSession(w.db, w.dataHome, alice, { provider: "openai" }, full);
  await startTurn({ db: w.db, dataHome: w.dataHome, audit: w.audit, env: full } satisfies TurnDeps, alice, s.id, { request: "draft the release notes" });
  for await (const _ of (await followTurn(w.db, alice, s.id))) void _;
  await settled(s.id);
  return server.requests[0]!;
}

describe("skills off in the playground", () => {
  it("OMNIFORGE_SKILLS_ENABLED=0, or config.yaml's skills.enabled: false, leaves skills out of what the model is sent", async () => {
    const on = await firstCall({});
    expect(JSON.stringify(on)).toContain("LISTED-MARK");
    for (const off of [{ OMNIFORGE_SKILLS_ENABLED: "0" }, "config"] as const) {
      if (off === "config") fs.writeFileSync(path.join(w.dataHome.home, "config.yaml"), "skills:\n  enabled: false\n");
      const body = await firstCall(off === "config" ? {} : off);
      expect(systemOf(body)).not.toMatch(/skill/i);
      expect(JSON.stringify(body)).not.toContain("LISTED-MARK");
      expect(toolNames(body).filter((n) => /skill/.test(n))).toEqual([]);
    }
  });
});
