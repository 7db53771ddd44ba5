// What a model endpoint does wrong, against the real client (ai SDK, chat completions) and servers on 127.0.0.1:
// one answer with too many tool calls, an endpoint that is gone, that answers nothing, never answers, or quotes
// the key it was sent, or whose stream stops mid-answer. Each ends in a clear result; none hangs the run or leaks
// the key.
import { describe, expect, it } from "vitest";
import { MemoryAuditSink } from "../audit/events";
import { openAiCompatibleProvider } from "./ai-providers";
import { runAgent } from "./loop";
import { serveFetch } from "../../test-support/http-server";
import { ofType, scriptedAgentBed, scriptedOpenAiServer, type ScriptedServer } from "./test-support/agent";

const bed = scriptedAgentBed((world) => {
  world.skill("pdf-forms", { description: "Fill PDF forms and list their fields. Use when working with PDF forms.", body: "# PDF forms\n\nFill the fields.\n" });
});

async function run(s: ScriptedServer) {
  const provider = openAiCompatibleProvider({ OPENAI_BASE_URL: s.baseURL, OPENAI_API_KEY: "k-test", OMNIFORGE_MODEL: "scripted-model" });
  const result = await runAgent({ request: "fill the PDF form", mode: "tool", provider, ...bed.runs(), audit: new MemoryAuditSink(), sessionId: "s", userId: "u" });
  return { result };
}

describe("one answer's tool calls", () => {
  it("at most 32 run; the rest get an error result saying so, and the model answers after", async () => {
    const calls = Array.from({ length: 40 }, (_, i) => ({ name: "read_file", arguments: { path: `missing-${i}.txt` } }));
    const s = await bed.server([{ toolCalls: calls }, { content: "done" }]);
    const { result } = await run(s);
    expect(result.reason).toBe("answered");
    const results = ofType(result.events, "tool_result");
    expect(results).toHaveLength(40);
    const notRun = results.filter((r) => r.output.startsWith("Not run: one answer may make at most 32 tool calls"));
    expect(notRun).toHaveLength(8);
    expect(results.slice(0, 32).some((r) => r.output.startsWith("Not run"))).toBe(false);
  });
});

describe("provider failures", () => {
  it("an unreachable endpoint ends the run with reason error and an error event, audited", async () => {
    // A server that was there and is gone: connection refused on 127.0.0.1.
    const gone = await scriptedOpenAiServer([{ content: "never" }]);
    await gone.close();
    const broken = openAiCompatibleProvider({ OPENAI_BASE_URL: gone.baseURL, OPENAI_API_KEY: "k", OMNIFORGE_MODEL: "m" });
    const audit = new MemoryAuditSink();
    const result = await runAgent({ request: "x", mode: "tool", provider: broken, ...bed.runs(), audit, sessionId: "s", userId: "u" });
    expect(result.reason).toBe("error");
    expect(ofType(result.events, "error")[0]!.message).toMatch(/^Failed after 2 attempts\. Last error: AI_APICallError: Cannot connect to API: connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
    expect(ofType(result.events, "run_finished")[0]!.reason).toBe("error");
    expect(audit.events.at(-1)).toMatchObject({ type: "agent_run_finished", details: expect.objectContaining({ reason: "error" }) });
  });

  it("an answer with no text and no tool call is an error, not an empty success", async () => {
    const empty = await serveFetch(async () => Response.json({ id: "x", object: "chat.completion", created: 0, model: "m", choices: [] }));
    try {
      const provider = openAiCompatibleProvider({ OPENAI_BASE_URL: `${empty.url}/v1`, OPENAI_API_KEY: "k", OMNIFORGE_MODEL: "m" });
      const result = await runAgent({ request: "x", mode: "tool", provider, ...bed.runs(), audit: new MemoryAuditSink(), sessionId: "s", userId: "u" });
      expect([result.reason, result.error]).toEqual(["error", "openai (m) answered with nothing: no text and no tool call"]);
    } finally {
      await empty.close();
    }
  });

  it("a streamed answer that stops without a finish reason is an error, not its first part taken for the answer", async () => {
    const frame = (o: unknown) => new TextEncoder().encode(`data: ${JSON.stringify(o)}\n\n`);
    const chunk = { id: "c", object: "chat.completion.chunk", created: 0, model: "m" };
    // The connection closes cleanly after the first piece: no finish_reason, no [DONE].
    const cut = await serveFetch(
      async () =>
        new Response(
          new ReadableStream({
            start(c) {
              c.enqueue(frame({ ...chunk, choices: [{ index: 0, delta: { role: "assistant", content: "The form has three fi" }, finish_reason: null }] }));
              c.close();
            },
          }),
          { headers: { "content-type": "text/event-stream" } },
        ),
    );
    try {
      const provider = openAiCompatibleProvider({ OPENAI_BASE_URL: `${cut.url}/v1`, OPENAI_API_KEY: "k", OMNIFORGE_MODEL: "m" });
      const deltas: string[] = [];
      const hints = { mode: "tool" as const, request: "x", skills: [], active: [] };
      const answer = provider.complete({ system: "s", messages: [{ role: "user", content: "x" }], tools: [], hints, onTextDelta: (d) => deltas.push(d) });
      await expect(answer).rejects.toThrow("openai (m) stopped answering mid-way: the stream ended without a finish reason");
      expect(deltas.join("")).toBe("The form has three fi");
    } finally {
      await cut.close();
    }
  });

  it("a server that never answers ends the run at OMNIFORGE_MODEL_TIMEOUT_SECONDS, with an error naming it", async () => {
    const silent = await serveFetch(() => new Promise<Response>(() => {})); // accepts, never answers
    try {
      const provider = openAiCompatibleProvider({ OPENAI_BASE_URL: `${silent.url}/v1`, OPENAI_API_KEY: "k", OMNIFORGE_MODEL: "m", OMNIFORGE_MODEL_TIMEOUT_SECONDS: "1" });
      const t = performance.now();
      const result = await runAgent({ request: "x", mode: "tool", provider, ...bed.runs(), audit: new MemoryAuditSink(), sessionId: "s", userId: "u" });
      expect(result.reason).toBe("error");
      expect(result.error).toBe("openai (m) did not finish answering within 1 s (OMNIFORGE_MODEL_TIMEOUT_SECONDS)");
      expect(performance.now() - t).toBeLessThan(10_000);
    } finally {
      await silent.close();
    }
  });

  it("a provider error quoting the key it was sent is masked on the screen, in the events and in the audit", async () => {
    const key = "sk-SECRETKEY-abc123456789abcd";
    const echo = await serveFetch(async (req) =>
      Response.json({ error: { message: `Incorrect API key provided: ${req.headers.get("authorization")}`, type: "invalid_request_error" } }, { status: 401 }),
    );
    try {
      const provider = openAiCompatibleProvider({ OPENAI_BASE_URL: `${echo.url}/v1`, OPENAI_API_KEY: key, OMNIFORGE_MODEL: "m" });
      const audit = new MemoryAuditSink();
      const result = await runAgent({ request: "x", mode: "tool", provider, ...bed.runs(), audit, sessionId: "s", userId: "u" });
      expect(result.reason).toBe("error");
      expect(result.error).toMatch(/Incorrect API key provided: (Bearer )?\[redacted\]/);
      expect(JSON.stringify([result.events, audit.events, result.error])).not.toContain("SECRETKEY");
    } finally {
      await echo.close();
    }
  });
});
