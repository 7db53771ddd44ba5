// The offline provider follows what a skill's prose says to do (#41 item 4): a command in inline code, a file to
// write, a file to read, in the body's order, each a real tool call through the executor. So a skill whose body
// runs curl without Bash(curl:*) meets the refusal a model would meet, and with it allowed the command runs in the
// sandbox (no network there: its failure is the answer, not a crash).
import { describe, expect, it } from "vitest";
import { MemoryAuditSink } from "../audit/events";
import { runAgent } from "./loop";
import { MAX_OFFLINE_STEPS, OfflineProvider } from "./offline";
import { planActions } from "./offline-plan";
import { proseSteps } from "./offline-prose";
import { makeAgentWorld, ofType, useRealRunner } from "./test-support/agent";

const bed = useRealRunner();

const WEATHER = [
  "# Weather",
  "",
  "If the user wants the long range outlook, read references/outlook.md first.",
  "To answer, run `curl -s wttr.in/Oslo?format=3` and report what it prints.",
  "Then use the Write tool to save the forecast to forecast.txt.",
  "Before you answer, read `references/units.md` for the units to use.",
  "",
].join("\n");
const has = (...files: string[]) => (rel: string) => files.includes(rel);

describe("offline provider following a skill's prose", () => {
  it("plans the prose's command, write and read in the body's order; a conditional read only when the request asks for it", () => {
    const files = has("references/outlook.md", "references/units.md");
    const plan = planActions(WEATHER, "what is the weather in Oslo", "tool", files);
    expect(plan.map((p) => [p.tool, p.input])).toEqual([
      ["bash", { command: "curl -s wttr.in/Oslo?format=3" }],
      ["write_file", { path: "forecast.txt", content: "Then use the Write tool to save the forecast to forecast.txt." }],
      ["read_file", { path: "references/units.md" }],
    ]);
    // Same body, same request: the same calls.
    expect(planActions(WEATHER, "what is the weather in Oslo", "tool", files)).toEqual(plan);
    // The condition names the request's words: the outlook is read where the body says, before the command.
    expect(planActions(WEATHER, "the long range outlook for Oslo", "orchestrated", files).map((p) => [p.tool, p.input.path ?? p.input.command])).toEqual([
      ["skills.read", "references/outlook.md"],
      ["bash", "curl -s wttr.in/Oslo?format=3"],
      ["write_file", "forecast.txt"],
      ["skills.read", "references/units.md"],
    ]);
    // A file the skill does not hold is not read; a command shown in a block and named again in prose runs once.
    const again = "```bash\ncurl -s wttr.in/Oslo\n```\n\nThat is, run `curl -s wttr.in/Oslo`. Read notes.md, then `git status` it.\n";
    expect(planActions(again, "weather", "tool", has()).map((p) => p.input)).toEqual([{ command: "curl -s wttr.in/Oslo" }, { command: "git status" }]);
    // The file a write goes to, not the first file the line names.
    expect(planActions("Read input.csv; write the summary to `report.md`.\n", "summary", "tool", has()).map((p) => p.input.path)).toEqual(["report.md"]);
  });

  it("reads a 100x body once and follows at most MAX_OFFLINE_STEPS of it, saying how many it left", async () => {
    const step = (i: number) => `${i}. Run \`curl -s https://example.com/${i}\` and note what it says.\n`;
    const body = "# Many\n\n" + Array.from({ length: 400 }, (_, i) => step(i)).join("");
    expect(planActions(body, "many", "tool", has())).toHaveLength(400);
    const w = makeAgentWorld();
    try {
      w.skill("many-steps", { description: "Checks many endpoints one by one. Use when asked to check many endpoints.", frontmatter: "allowed-tools: Read", body });
      const r = await runAgent({ request: "check many endpoints", mode: "tool", provider: new OfflineProvider(), skills: { index: w.index() }, runner: bed.runner, audit: new MemoryAuditSink(), scratchDir: w.scratch, sessionId: "s", userId: "u" });
      expect(r.events.at(-1)).toMatchObject({ type: "run_finished", reason: "answered" });
      expect(ofType(r.events, "tool_call").filter((c) => c.tool === "bash")).toHaveLength(MAX_OFFLINE_STEPS);
      expect(r.answer).toContain(`The body names ${400 - MAX_OFFLINE_STEPS} more steps`);
    } finally {
      w.cleanup();
    }
  });

  it("reads a 100 KB line of file names and read verbs, or of inline commands, once; each file is asked of the disk once", () => {
    const line = "Read a.md, see `b.md` and open c.txt; ".repeat(2_000) + "x".repeat(20_000) + ".md";
    const calls: string[] = [];
    const steps = proseSteps(`# Long\n\n${line}\n`, "long", (rel) => (calls.push(rel), rel !== "c.txt"));
    expect(steps.map((s) => [s.kind, s.text])).toEqual([
      ["read", "a.md"],
      ["read", "b.md"],
    ]);
    expect(calls.sort()).toEqual(["a.md", "b.md", "c.txt"]);
    // One line of 5,000 inline commands: each found after the one before, in order.
    const spans = proseSteps("Run " + Array.from({ length: 5_000 }, (_, i) => `\`curl -s https://example.com/${i}\``).join(" and ") + ".\n", "x");
    expect(spans).toHaveLength(5_000);
    expect(spans[4_999]).toMatchObject({ kind: "bash", text: "curl -s https://example.com/4999" });
    expect(spans.every((s, i) => i === 0 || s.at > spans[i - 1]!.at)).toBe(true);
  });

  it.each([
    ["Read", "refused", false],
    ["Read Write Bash(curl:*)", "run (sandboxed)", true],
  ] as const)("allowed-tools %s: curl and the write are %s", async (allowed, _said, runs) => {
    const w = makeAgentWorld();
    try {
      w.skill("weather", {
        description: "Tells the current weather for a city. Use when asked about the weather.",
        frontmatter: `allowed-tools: ${allowed}`,
        body: WEATHER,
        files: { "references/units.md": "UNITS: degrees Celsius\n", "references/outlook.md": "OUTLOOK\n" },
      });
      const audit = new MemoryAuditSink();
      const r = await runAgent({ request: "tell the current weather in Oslo", mode: "tool", provider: new OfflineProvider(), skills: { index: w.index() }, runner: bed.runner, audit, scratchDir: w.scratch, sessionId: "s", userId: "u" });
      const results = ofType(r.events, "tool_result");
      const bash = results.find((e) => e.tool === "bash")!;
      const write = results.find((e) => e.tool === "write_file")!;
      expect(results.find((e) => e.tool === "read_file")).toMatchObject({ ok: true });
      expect(r.answer).toContain("UNITS: degrees Celsius");
      const violations = audit.events.filter((e) => e.type === "tool_restriction_violated").map((e) => e.tool);
      if (!runs) {
        expect(bash).toMatchObject({ ok: false, refused: { skill: "weather", rule: "allowed-tools" } });
        expect(write).toMatchObject({ ok: false, refused: { skill: "weather", rule: "allowed-tools" } });
        expect(violations).toEqual(["bash", "write_file"]);
        expect(ofType(r.events, "script_run")).toEqual([]);
        expect(r.answer).toMatch(/ran `curl -s wttr\.in\/Oslo\?format=3`: refused or failed: Tool 'bash' \(curl [^)]*\) is not allowed by active skill 'weather'/);
      } else {
        expect(violations).toEqual([]);
        // No network in the sandbox: curl fails, and the run says so and answers.
        const run = ofType(r.events, "script_run")[0]!;
        expect(run).toMatchObject({ sandboxed: bed.sandboxed });
        if (bed.sandboxed) expect(run.exitCode).not.toBe(0);
        expect(bash.refused).toBeUndefined();
        expect(write).toMatchObject({ ok: true });
        expect(r.events.at(-1)).toMatchObject({ type: "run_finished", reason: "answered" });
        expect(r.answer).toContain("- wrote forecast.txt:");
      }
    } finally {
      w.cleanup();
    }
  });
});
