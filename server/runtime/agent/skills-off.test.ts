// Skills off (seed 003, issue 37 item 4): a run with skills.enabled false has no listing, no skill tool and not a
// word about skills in its prompt, in every mode: what the model is sent, through a scripted server on 127.0.0.1.
import { describe, expect, it } from "vitest";
import { MemoryAuditSink } from "../audit/events";
import { openAiCompatibleProvider } from "./ai-providers";
import { runAgent } from "./loop";
import { ofType, scriptedAgentBed, systemOf, toolNames, type ScriptedServer } from "./test-support/agent";
import type { AgentRunOptions, DisclosureMode } from "./types";

const bed = scriptedAgentBed((world) => {
  world.skill("pdf-tools", { description: "Fill PDF forms. DESCRIPTION-MARK.", body: "# PDF\n\nBODY-MARK.\n" });
});

async function run(s: ScriptedServer, mode: DisclosureMode, extra: Partial<AgentRunOptions>) {
  return runAgent({ request: "fill the PDF form", mode, provider: openAiCompatibleProvider({ OPENAI_BASE_URL: s.baseURL, OPENAI_API_KEY: "k", OMNIFORGE_MODEL: "scripted" }), ...bed.runs(), audit: new MemoryAuditSink(), sessionId: "sess-off", userId: "ann", ...extra });
}

describe("skills off", () => {
  for (const mode of ["tool", "prompt", "orchestrated"] as DisclosureMode[]) {
    it(`${mode}: nothing about skills reaches the model, by the option or by the resolution context (config.yaml)`, async () => {
      const offBy: Partial<AgentRunOptions>[] = [{ skillsEnabled: false }, { skills: { index: bed.world.index(), context: { skillsEnabled: false } } }];
      for (const extra of offBy) {
        const s = await bed.server([{ content: "plain answer" }]);
        const result = await run(s, mode, extra);
        expect(result.answer).toBe("plain answer");
        const body = s.requests[0]!;
        expect(systemOf(body)).not.toMatch(/skill/i);
        expect(JSON.stringify(body)).not.toMatch(/available_skills|DESCRIPTION-MARK|pdf-tools/);
        expect(toolNames(body).filter((n) => /skill/.test(n))).toEqual([]);
        expect(toolNames(body).length).toBeGreaterThan(0);
        expect(ofType(result.events, "run_started")[0]!.listing).toMatchObject({ total: 0, listed: 0, why: expect.stringMatching(/Skills are off/) });
      }
      // On, the same run lists the skill: the test would see a listing if there were one.
      const on = await bed.server([{ content: "plain answer" }]);
      await run(on, mode, {});
      expect(JSON.stringify(on.requests[0]!)).toContain("DESCRIPTION-MARK");
    });
  }
});
