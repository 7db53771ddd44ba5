// The audit seeds 000 and 001 ask for (issue 37 item 8): script_executed keeps the output (bounded, with byte
// counts), skill_activated / skill_deactivated carry the run's context, a correlation id and the time active.
// Through the real loop, the real runner and a scripted OpenAI-compatible server on 127.0.0.1.
import { describe, expect, it } from "vitest";
import { MemoryAuditSink } from "../audit/events";
import { openAiCompatibleProvider } from "./ai-providers";
import { runAgent } from "./loop";
import { scriptedAgentBed } from "./test-support/agent";
import { AUDIT_OUTPUT_EDGE_BYTES } from "../tools/builtin/script-output";

const bed = scriptedAgentBed((world) => {
  world.skill("big-report", {
    description: "Print a long report.",
    body: "# Report\n",
    files: { "scripts/long.py": "import sys\nprint('FIRST-LINE')\nprint('m' * 20000)\nprint('LAST-LINE')\nprint('ERR-TEXT', file=sys.stderr)\n" },
  });
});

describe("audit of a run", () => {
  it("keeps a script's output bounded with its byte counts, and ties activations to the run and its context", async () => {
    const s = await bed.server([
      { toolCalls: [{ name: "skills_load", arguments: { names: ["big-report"] } }] },
      { toolCalls: [{ name: "skills_run_script", arguments: { path: "scripts/long.py" } }] },
      { toolCalls: [{ name: "skills_unload", arguments: { all: true } }] },
      { content: "done" },
    ]);
    const audit = new MemoryAuditSink();
    const result = await runAgent({
      request: "print the report",
      mode: "orchestrated",
      provider: openAiCompatibleProvider({ OPENAI_BASE_URL: s.baseURL, OPENAI_API_KEY: "k", OMNIFORGE_MODEL: "scripted" }),
      ...bed.runs(),
      skills: { index: bed.world.index(), context: { environment: "production", agent: "support", scopeDefaults: { tenant: "acme" } } },
      audit,
      sessionId: "sess-audit",
      userId: "ann",
    });
    const ran = audit.events.find((e) => e.type === "script_executed")!;
    const d = ran.details as Record<string, unknown>;
    const stdout = String(d.stdout);
    expect(d.stdoutBytes).toBe("FIRST-LINE\n".length + 20001 + "LAST-LINE\n".length);
    expect(stdout.startsWith("FIRST-LINE\n")).toBe(true);
    expect(stdout.endsWith("LAST-LINE\n")).toBe(true);
    expect(stdout).toContain(`[... ${Number(d.stdoutBytes) - 2 * AUDIT_OUTPUT_EDGE_BYTES} bytes left out ...]`);
    expect(Buffer.byteLength(stdout)).toBeLessThan(2 * AUDIT_OUTPUT_EDGE_BYTES + 100);
    expect(d).toMatchObject({ stderr: "ERR-TEXT\n", stderrBytes: 9, runId: result.runId });

    const on = audit.events.find((e) => e.type === "skill_activated")!;
    const off = audit.events.find((e) => e.type === "skill_deactivated")!;
    const context = { tenant: "acme", agent: "support", environment: "production" };
    expect(on.details).toMatchObject({ runId: result.runId, context });
    expect(off.details).toMatchObject({ runId: result.runId, context, reason: "all" });
    expect(typeof (off.details as { activeMs?: unknown }).activeMs).toBe("number");
  });
});
