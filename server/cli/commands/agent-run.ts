// `omniforge agent run "<request>"`: one request against the current layers, with the steps printed as they
// happen (or, with --json, one AgentEvent per line). Audit events go to the console's database when there is one
// (its PostgreSQL with DATABASE_URL, or <home>/console.db), else they stay in memory (and are counted at the end).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CONTEXT_FLAGS, parseCommand, stringFlags, wholeNumber } from "../args";
import { ConsoleDbError, openConsoleIfAny, type ConsoleDatabase } from "../console-db";
import { errorLine } from "../error-line";
import { signalExitCode, type CliIO } from "../io";
import { contextFor } from "../policy-source";
import type { SkillsConfig } from "../../runtime/registry/config-file";
import type { ResolveContext } from "../../runtime/registry/types";
import { configFrom } from "./skill-list";
import { MemoryAuditSink, type AuditSink } from "../../runtime/audit/events";
import { createProvider, DISCLOSURE_MODES, isProviderName, runAgent, type AgentEvent, type DisclosureMode } from "../../runtime/agent/index";
import { providerForSkillModel } from "../../runtime/agent/skill-model";
import { SkillIndex } from "../../runtime/registry/skill-index";
import { createSandbox, DEFAULT_SANDBOX_GID, DEFAULT_SANDBOX_UID, unsafeRequested } from "../../runtime/sandbox/index";
import { auditSinkFor } from "../../services/audit/index";
import { CLI_SOURCE_AGENT } from "../../domain/audit-events";
import { printableLines } from "../printable";
import { setting } from "../../../env";
import { count } from "../../domain/plural";
import { routingFromSettings } from "../../runtime/agent/routing-settings";

export const summary = "Run one request through the agent (tool, prompt or orchestrated disclosure) and print its steps";

const USAGE = `usage: omniforge agent run "<request>" [--mode tool|prompt|orchestrated] [--provider offline|openai|anthropic]
                           [--json] [--home DIR] [--project DIR] [--user ID] [--environment NAME]
                           [--agent NAME] [--tenant NAME] [--policy FILE.json] [--steps N]
  --mode      disclosure mode (default: tool)
  --policy    a policy file; default: the console's policy (DATABASE_URL's PostgreSQL, else the data home's
              console.db), so a skill blocked or waiting for approval there is never offered here
  --provider  offline (default, or $OMNIFORGE_PROVIDER; rule-based, no key), openai (OPENAI_BASE_URL, OPENAI_API_KEY, OMNIFORGE_MODEL),
              anthropic (ANTHROPIC_API_KEY)
  --json      one JSON object per event, one per line
  Scripts run in the sandbox; OMNIFORGE_SANDBOX=unsafe (set by an administrator) runs them without isolation.
`;

function clip(s: string, n: number): string {
  const flat = s.replace(/\s+$/, "");
  return flat.length > n ? flat.slice(0, n) + " …" : flat;
}

function indent(text: string, pad: string): string {
  return text.split("\n").map((l) => pad + l).join("\n");
}

/** One readable block per event. */
export function formatEvent(e: AgentEvent): string | null {
  const pad = "  ".repeat(e.depth) + (e.depth ? "│ " : "");
  // Everything here can come from the model (its answer, tool names and arguments, what tools returned): its escape
  // sequences would set the window title, clear the screen or forge a status line. Line breaks stay.
  const line = (s: string) => indent(printableLines(s), pad) + "\n";
  switch (e.type) {
    case "run_started": {
      const l = e.listing;
      const cut = l.shortened || l.omitted ? ` (${l.shortened} shortened, ${l.omitted} left out)` : "";
      return line(`▶ ${e.depth ? `sub-agent for '${e.forkSkill}'` : "run"}: mode ${e.mode}, provider ${e.provider} (${e.model}), step limit ${e.stepLimit}\n  listing: ${l.listed}/${l.total} skills, ${l.chars}/${l.budgetChars} chars, ~${l.tokens} tokens${cut}${(e.routing ?? []).map((n) => `\n  routing: ${n}`).join("")}`);
    }
    case "model_call": {
      const c = e.cost;
      return line(`· model call ${e.step}: stage1 ~${c.stage1.tokens} · stage2 ~${c.stage2.tokens} · stage3 ~${c.stage3.tokens} · other ~${c.other.tokens} tokens → ${count(e.toolCalls, "tool call")}, ${e.durationMs} ms`);
    }
    case "skill_selected":
      return line(`◆ selected '${e.skill}': ${e.reason}`);
    case "skill_activated":
      return line(`+ activated '${e.skill}' (${e.layer}, ${e.digest.slice(0, 12)}) via ${e.via}; allowed-tools: ${e.allowedTools ? e.allowedTools.join(" ") : "no restriction"}`);
    case "skill_deactivated":
      return line(`- deactivated '${e.skill}' (${e.reason})`);
    case "skill_model":
      return line(`${e.used ? "⇄" : "!"} ${e.detail}`);
    case "tool_call":
      return line(`→ ${e.tool} ${clip(JSON.stringify(e.input), 300)}`);
    case "tool_result": {
      const head = e.refused ? `✗ REFUSED by '${e.refused.skill}' (${e.refused.rule})` : e.ok ? "✓" : "✗ failed";
      return line(`${head} ${e.tool} (${Math.round(e.durationMs)} ms)\n${indent(clip(e.output, 800), "    ")}`);
    }
    case "script_run":
      return line(`  $ ${e.command.join(" ")}${e.hook ? ` [hooks.${e.hook}]` : ""}: ${e.refused ? `not run (${e.refused})` : `exit ${e.exitCode}`}, ${Math.round(e.durationMs)} ms, ${e.sandboxed ? "sandboxed" : "NOT sandboxed"}${e.timedOut ? ", timed out" : ""}${e.truncated ? ", output cut" : ""}`);
    case "text_delta":
      return null;
    case "message":
      return line(`\n${e.text}\n`);
    case "error":
      return line(`! ${e.message}`);
    case "run_finished": {
      const sum = (k: "stage1" | "stage2" | "stage3") => e.costs.reduce((n, c) => n + c[k].tokens, 0);
      return line(`■ ${e.reason} after ${count(e.steps, "model call")}, ${e.durationMs} ms; tokens sent per stage over all calls: stage1 ~${sum("stage1")}, stage2 ~${sum("stage2")}, stage3 ~${sum("stage3")}`);
    }
  }
}

export async function run(args: string[], io: CliIO): Promise<number> {
  const cmd = parseCommand("agent run", USAGE, args, {
    ...CONTEXT_FLAGS,
    ...stringFlags("mode", "provider", "policy", "steps"),
  }, io);
  if (typeof cmd === "number") return cmd;
  const { values, positionals, fail } = cmd;
  const request = positionals.join(" ").trim();
  if (!request) {
    return fail(`give the request in quotes`);
  }
  let mode = (values.mode ?? "tool") as DisclosureMode;
  if (!DISCLOSURE_MODES.includes(mode)) {
    io.err(`omniforge agent run: unknown mode "${values.mode}": use ${DISCLOSURE_MODES.join(", ")}\n`);
    return 2;
  }
  if (values.provider !== undefined && !isProviderName(values.provider)) {
    io.err(`omniforge agent run: unknown provider "${values.provider}": use offline, openai or anthropic\n`);
    return 2;
  }
  const stepLimit = values.steps !== undefined ? wholeNumber(values.steps, 1, 100) : undefined;
  if (stepLimit === null) {
    io.err(`omniforge agent run: --steps must be a whole number from 1 to 100\n`);
    return 2;
  }

  let provider;
  let config;
  let ctx: ResolveContext;
  let policyFrom: string | null;
  let settings: SkillsConfig;
  try {
    provider = createProvider(values.provider, io.env);
    config = configFrom(values, io);
    // The console's policy when it has a database: a skill blocked there is never offered here.
    ({ ctx, policyFrom, settings } = await contextFor(config, values, io.cwd, io.env));
    // config.yaml's defaults, under the flags.
    if (!values.mode && settings.mode) mode = settings.mode;
  } catch (e) {
    io.err(`omniforge agent run: ${errorLine(e)}\n`);
    return 2;
  }

  // Audit: the console's database when there is one (its PostgreSQL with DATABASE_URL, or a console.db in this
  // home), else memory.
  const memory = new MemoryAuditSink();
  let audit: AuditSink = memory;
  let flush: () => Promise<unknown> = async () => {};
  // Once, whichever way the run ends: a PostgreSQL pool left open kept a failed run's process alive until its idle
  // connections timed out (10 s), and a pool ended twice throws.
  let closeDatabase: () => Promise<void> = async () => {};
  let auditWhere = "memory";
  let opened: ConsoleDatabase | null = null;
  try {
    opened = await openConsoleIfAny(config.home, "write", io.env);
  } catch (e) {
    io.err(`omniforge agent run: ${e instanceof ConsoleDbError ? e.message : errorLine(e)}; audit events stay in memory\n`);
  }
  if (opened) {
    const { db, close, where } = opened;
    const writer = auditSinkFor(db, { stdout: false });
    // Said to come from the command line, on this host as this user: without a source the audit page took these
    // turns for the console playground's.
    const source = { agent: CLI_SOURCE_AGENT, host: os.hostname(), user: os.userInfo().username };
    audit = { record: (e) => writer.record(e.source ? e : { ...e, source }) };
    flush = () => writer.flush();
    let closing: Promise<void> | undefined;
    closeDatabase = () => (closing ??= close());
    auditWhere = where;
  }

  try {
    const scratchDir = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-agent-scratch-"));
    fs.chmodSync(scratchDir, 0o755);
    if (process.getuid?.() === 0) fs.chownSync(scratchDir, DEFAULT_SANDBOX_UID, DEFAULT_SANDBOX_GID);
    const sandbox = createSandbox({ unsafe: unsafeRequested(io.env) });
    // Skills off (config.yaml or OMNIFORGE_SKILLS_ENABLED): no folder is scanned for the run (seed 003).
    const skillsOn = ctx.skillsEnabled !== false;
    const index = skillsOn ? SkillIndex.build(config) : null;
    const ac = new AbortController();
    // Ctrl-C and a polite kill (SIGTERM: a CI job's timeout, a supervisor) end the run the same way, so the scratch
    // folder with what the model wrote is removed either way.
    let stoppedBy: NodeJS.Signals | undefined;
    const onSigint = (signal: NodeJS.Signals) => {
      stoppedBy = signal;
      ac.abort(new Error("interrupted"));
    };
    process.once("SIGINT", onSigint);
    process.once("SIGTERM", onSigint);
    try {
      const result = await runAgent({
        request,
        mode,
        provider,
        routing: await routingFromSettings(io.env, config.home),
        skills: index ? { index, context: ctx } : [],
        ...(skillsOn ? {} : { skillsEnabled: false }),
        runner: sandbox,
        // A skill's `model` field switches the rest of the run when its provider is configured here (as in the playground).
        modelFor: (model) => providerForSkillModel(model, io.env),
        audit,
        scratchDir,
        sessionId: `cli-${process.pid}-${Date.now()}`,
        userId: values.user ?? "cli",
        ...(stepLimit ? { stepLimit } : {}),
        ...(settings.listingBudget ? { listingBudgetChars: settings.listingBudget } : {}),
        maxLoadedSkills: setting("OMNIFORGE_MAX_LOADED_SKILLS", io.env),
        maxActivationDepth: setting("OMNIFORGE_MAX_ACTIVATION_DEPTH", io.env),
        signal: ac.signal,
        onEvent: (e) => {
          if (values.json) io.out(JSON.stringify(e) + "\n");
          else {
            const text = formatEvent(e);
            if (text) io.out(text);
          }
        },
      });
      await flush();
      if (!values.json) io.out(`audit: ${auditWhere === "memory" ? `${memory.events.length} events kept in memory (no console.db in ${config.home})` : `written to ${auditWhere}`}; policy: ${policyFrom ?? "none"}\n`);
      // Interrupted: the code a shell gives a process the signal ended (130 for Ctrl-C), not a failed run's 1.
      if (stoppedBy) return signalExitCode(stoppedBy);
      return result.reason === "answered" ? 0 : 1;
    } catch (e) {
      io.err(`omniforge agent run: ${(e as Error).message}\n`);
      return stoppedBy ? signalExitCode(stoppedBy) : 1;
    } finally {
      process.removeListener("SIGINT", onSigint);
      process.removeListener("SIGTERM", onSigint);
      await sandbox.close();
      fs.rmSync(scratchDir, { recursive: true, force: true });
    }
  } finally {
    await closeDatabase().catch((e: unknown) => io.err(`omniforge agent run: closing the console's database: ${errorLine(e)}\n`));
  }
}
