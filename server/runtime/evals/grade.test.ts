// Grading evals.json expectations with a model, against the scripted OpenAI-compatible server: the agent answers
// the prompt (activating the skill), then the grader's verdicts are read per expectation; offline refuses to grade.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAiCompatibleProvider } from "../agent/ai-providers";
import { OfflineProvider } from "../agent/offline";
import { makeAgentWorld, scriptedOpenAiServer, type AgentWorld, type ScriptedServer } from "../agent/test-support/agent";
import { gradeTaskEvals, GradingUnavailable, parseGrades } from "./grade";

let world: AgentWorld;
let server: ScriptedServer;
beforeAll(async () => {
  world = makeAgentWorld();
  world.skill("pdf-forms", { description: "Fill PDF forms. Use for PDF forms.", body: "# PDF\n\nList the fields, then fill them.\n" });
  server = await scriptedOpenAiServer((body) => {
    const all = JSON.stringify(body);
    if (all.includes("You grade the answers")) return { content: '<grades>[{"n": 1, "passed": true, "reason": "It lists the fields."}, {"n": 2, "passed": false, "reason": "Nothing was flattened."}]</grades>' };
    if (!all.includes("List the fields, then fill them.")) return { toolCalls: [{ name: "skill", arguments: { name: "pdf-forms" } }] };
    return { content: "The form has fields name and date; I filled both." };
  });
});
afterAll(async () => {
  await server.close();
  world.cleanup();
});

describe("gradeTaskEvals", () => {
  it("runs each prompt to its answer and reads the grader's verdict for every expectation", async () => {
    const provider = openAiCompatibleProvider({ OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "k", OMNIFORGE_MODEL: "gpt-test" });
    const grades = await gradeTaskEvals({
      evals: [
        { id: 1, prompt: "Fill the W-9 form", expectations: ["lists the form's fields", "flattens the result"] },
        { id: 2, prompt: "no expectations here" },
      ],
      skills: { index: world.index() },
      provider,
      mode: "tool",
      scratchDir: world.scratch,
    });
    expect(grades).toHaveLength(1);
    expect(grades[0]).toMatchObject({ id: 1, activated: ["pdf-forms"], answer: "The form has fields name and date; I filled both." });
    expect(grades[0]!.expectations).toEqual([
      { expectation: "lists the form's fields", passed: true, reason: "It lists the fields." },
      { expectation: "flattens the result", passed: false, reason: "Nothing was flattened." },
    ]);
  });

  it("the offline provider cannot grade; an unreadable verdict fails each expectation with the reason", async () => {
    await expect(gradeTaskEvals({ evals: [], skills: [], provider: new OfflineProvider(), mode: "tool", scratchDir: world.scratch })).rejects.toBeInstanceOf(GradingUnavailable);
    expect(parseGrades("I think it is fine", ["a"])).toEqual([{ expectation: "a", passed: false, reason: "the grader gave no verdict for this expectation" }]);
  });
});
