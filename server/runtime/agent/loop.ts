// The agent loop: model call, tool calls through the executor, results back, until the model answers or the
// step limit. Every step is an AgentEvent. A run deactivates every skill it activated when it ends, however
// it ends (answer, step limit, abort, error), and runs their post hooks.
// One piece by design: `run` is a single closure over one run's state (the skill stack, the cost meter, the events,
// the fork frame). Its steps live beside it: routing.ts, listing.ts, session-skills.ts, hooks.ts, costs.ts, fork-agent.ts.
import { randomUUID } from "node:crypto";
import type { ScriptResult, ScriptRunner } from "../sandbox/types";
import { maskSecrets } from "../tools/audit-args";
import { Executor } from "../tools/executor";
import { activateSkill, endRun } from "../tools/lifecycle";
import { SkillStack } from "../tools/stack";
import type { ActiveSkill, ToolContext } from "../tools/types";
import { CostMeter, stageOfHistory, stageOfResult } from "./costs";
import { hookNote, runHook, type HookRun } from "./hooks";
import { emptyListing, listingBudgetFor, listingInfo, recentRequests } from "./listing";
import { restoreSessionSkills } from "./session-skills";
import { router } from "./routing";
import { routeAndPick } from "./route-pick";
import type { SkillEntry } from "../registry/types";
import { toolsForMode, toolsWithoutSkills, type ModeHost } from "./mode-tools";
import { ActivationChains } from "./activation-chain";
import { DEFAULT_MAX_ACTIVATION_DEPTH, DEFAULT_MAX_LOADED_SKILLS } from "../../domain/skill-protocol";
import { forkAgentOf, toolsForForkAgent } from "./fork-agent";
import { activeSkillsBlock, baseSystemPrompt, forkSystemPrompt, plainSystemPrompt } from "./prompts";
import { skillModelSwitch } from "./skill-model";
import { effectiveSkills, loadSkill, scopeOf, skillsOff, type LoadedSkill } from "./skill-source";
import type {
  ActivationVia,
  AgentEvent,
  AgentRunOptions,
  AgentRunResult,
  ChatMessage,
  DeactivationReason,
  ModelResponse,
  RunFinishReason,
  StageCost,
} from "./types";

export const DEFAULT_STEP_LIMIT = 12;
/**
 * Tool calls run from one answer; the rest get an error result saying so. The step limit counts model calls, so
 * without this one answer of a thousand script calls ran a thousand scripts.
 */
export const MAX_TOOL_CALLS_PER_ANSWER = 32;
export { DEFAULT_MAX_ACTIVATION_DEPTH, DEFAULT_MAX_LOADED_SKILLS };

type EventBody = AgentEvent extends infer E ? (E extends AgentEvent ? Omit<E, "runId" | "t" | "depth" | "forkSkill"> : never) : never;

interface ForkFrame {
  depth: number;
  skill: LoadedSkill;
  /** The activation chain up to and including the fork skill (cycles and depth span sub-agents). */
  chain: string[];
  /** The parent's stream: a sub-agent's events are part of the run that forked it. */
  forward(event: AgentEvent): void;
}

const VIA: Record<string, ActivationVia> = { skill: "skill_tool", read_file: "read_skill_md", "skills.load": "skills.load" };
const DROP_REASON: Record<string, DeactivationReason> = { skill: "requested", "skills.unload": "unloaded", "skills.load": "replaced" };

/** A script run the loop saw, with the folder of the skill it belongs to (which need not be the top one). */
interface SeenScript {
  result: ScriptResult;
  skillDir: string;
}

/** Wraps the runner so the loop sees every ScriptResult (for script_run events) and runs stop on abort. */
function observedRunner(inner: ScriptRunner | undefined, signal: AbortSignal | undefined, seen: SeenScript[]): ScriptRunner | undefined {
  if (!inner) return undefined;
  return {
    status: () => inner.status(),
    async run(req) {
      const r = await inner.run({ ...req, ...(signal && !req.signal ? { signal } : {}) });
      seen.push({ result: r, skillDir: req.skillDir });
      return r;
    },
  };
}

export async function runAgent(options: AgentRunOptions): Promise<AgentRunResult> {
  return run(options, null);
}

async function run(opts: AgentRunOptions, fork: ForkFrame | null): Promise<AgentRunResult> {
  const runId = randomUUID();
  const t0 = performance.now();
  const events: AgentEvent[] = [];
  const depth = fork?.depth ?? 0;
  const emit = (e: EventBody) => {
    const full = { ...e, runId, t: Math.round(performance.now() - t0), depth, ...(fork ? { forkSkill: fork.skill.name } : {}) } as AgentEvent;
    events.push(full);
    if (fork) fork.forward(full);
    else deliver(full);
  };
  const deliver = (e: AgentEvent) => {
    try {
      opts.onEvent?.(e);
    } catch {
      // a listener that throws must not break the run
    }
  };
  const forward = (e: AgentEvent) => {
    events.push(e);
    if (fork) fork.forward(e);
    else deliver(e);
  };
  const mode = opts.mode;
  // `let`: an activated skill's `model` field may switch it for the rest of the run (skill-model.ts).
  let provider = opts.provider;
  const stepLimit = Math.max(1, Math.floor(opts.stepLimit ?? DEFAULT_STEP_LIMIT));
  const costs: StageCost[] = [];
  const activatedNames: string[] = [];
  let reason: RunFinishReason = "step_limit";
  let answer = "";
  let errorMessage: string | undefined;

  // Stage 1: the effective skills and their listing (a fork sub-agent gets none: its skill is its instructions).
  // Skills off (seed 003): no resolution, no listing, no skill tools, nothing about skills in the prompt.
  const off = skillsOff(opts);
  const entries = off ? [] : effectiveSkills(opts.skills);
  const byName = new Map(entries.map((e) => [e.name, e]));
  const { route, list, find } = router(opts.skills, entries, opts.searchIndex, fork || off ? null : opts.routing?.meaning);
  const routeOpts = { mode, budgetChars: opts.listingBudgetChars ?? listingBudgetFor(provider.contextTokens), recent: recentRequests(opts.history) };
  const routed = fork || off ? null : await routeAndPick({ route, list }, provider, opts.request, routeOpts, opts.routing?.pickTopK ?? 0, opts.signal);
  const routingNotes = routed?.notes ?? [];
  const ranked = routed?.ranked ?? null;
  const byId = routed?.byId ?? new Map<string, SkillEntry>();
  const listing = routed?.listing ?? emptyListing(off ? "Skills are off (skills.enabled: false or OMNIFORGE_SKILLS_ENABLED): nothing is listed." : "A sub-agent gets no listing: its skill is its instructions.");
  const rankingHint = ranked
    ? {
        hits: ranked.hits.slice(0, 20).map((h) => ({ name: h.name, description: h.description, location: byId.get(h.id)?.file ?? "", score: h.score, confidence: h.confidence, why: h.why })),
        abstain: ranked.abstain,
        ...(ranked.reason ? { reason: ranked.reason } : {}),
        searched: ranked.searched,
      }
    : undefined;

  const scripts: SeenScript[] = [];
  const stack = fork ? new SkillStack() : opts.stack ?? new SkillStack();
  const host: ModeHost = {
    skills: byName,
    find,
    loaded: new Map(),
    request: opts.request,
    maxLoadedSkills: Math.max(1, opts.maxLoadedSkills ?? DEFAULT_MAX_LOADED_SKILLS),
    chains: new ActivationChains(fork?.chain ?? [], Math.max(1, opts.maxActivationDepth ?? DEFAULT_MAX_ACTIVATION_DEPTH)),
    keepLoaded: !off && !fork && mode === "orchestrated" && opts.activeSkills !== undefined,
    runFork: async (skill, task, chain) => {
      const sub = await run({ ...opts, request: task, history: [], stack: undefined, activeSkills: undefined }, { depth: depth + 1, skill, chain, forward });
      if (sub.reason === "answered") return sub.answer;
      return `(The sub-agent stopped without an answer: ${sub.reason}${sub.error ? `, ${sub.error}` : ""}.)`;
    },
  };
  const executor = new Executor({
    // A sub-agent activates skills with its mode's tools too (so a chain can run through it), without a listing.
    tools: off ? toolsWithoutSkills() : fork ? toolsForForkAgent(toolsForMode(mode, host, listing.text), forkAgentOf(fork.skill)) : toolsForMode(mode, host, listing.text),
    context: {
      sessionId: opts.sessionId,
      userId: opts.userId,
      scratchDir: opts.scratchDir,
      stack,
      runner: observedRunner(opts.runner, opts.signal, scripts),
      audit: opts.audit,
      model: provider.model,
      mode,
      runId,
      ...(scopeOf(opts) ? { scope: scopeOf(opts) } : {}),
    },
  });
  const ctx: ToolContext = executor.context;
  const specs = executor.specs();
  const meter = new CostMeter();
  const base = fork ? forkSystemPrompt(fork.skill, forkAgentOf(fork.skill)) : off ? plainSystemPrompt() : baseSystemPrompt(mode);
  const systemStatic = mode === "tool" || fork || off ? base : `${base}\n\n## Available skills\n${listing.text}`;

  const audit = (type: "agent_run_started" | "agent_run_finished", details: Record<string, unknown>) => {
    try {
      ctx.audit.record({ type, actor: { id: ctx.userId }, sessionId: ctx.sessionId, model: provider.model, mode, outcome: "ok", ...(fork ? { skill: fork.skill.name, layer: fork.skill.layer, digest: fork.skill.digest } : {}), details: { runId, provider: provider.name, depth, ...details } });
    } catch {}
  };

  const emitScript = (r: ScriptResult, extra: { callId?: string; skill?: string; hook?: "pre" | "post" }) =>
    emit({
      type: "script_run",
      ...extra,
      command: r.command,
      exitCode: r.exitCode,
      stdout: r.stdout,
      stderr: r.stderr,
      durationMs: r.durationMs,
      sandboxed: r.sandboxed,
      truncated: r.truncated,
      timedOut: r.timedOut,
      ...(r.refused ? { refused: r.refused } : {}),
    });

  // Skills active before this run (a session's pinned skills) are loaded on first need, for injection and hooks.
  const loadedOf = (s: ActiveSkill): LoadedSkill | undefined => {
    if (fork && s.name === fork.skill.name) return fork.skill;
    const have = host.loaded.get(s.name);
    if (have) return have;
    const entry = byName.get(s.name);
    if (!entry) return undefined;
    try {
      const l = loadSkill(entry);
      host.loaded.set(l.name, l);
      return l;
    } catch {
      return undefined;
    }
  };

  const unavailableModels = new Set<string>();
  const onActivated = async (s: ActiveSkill, via: ActivationVia): Promise<string[]> => {
    if (!activatedNames.includes(s.name)) activatedNames.push(s.name);
    emit({ type: "skill_activated", skill: s.name, layer: s.layer, digest: s.digest, allowedTools: s.allowedTools ?? null, via, baseDir: s.baseDir });
    const loaded = loadedOf(s);
    const hook = loaded ? await runHook(ctx, loaded, "pre", opts.signal) : null;
    const notes = hook ? [reportHook(hook, s.name)] : [];
    const switched = skillModelSwitch(provider, loaded, opts.modelFor);
    // A model the host cannot give is said once per run, not at every activation that asks for it.
    if (switched && !switched.provider && unavailableModels.has(switched.event.model)) return notes;
    if (switched) {
      if (!switched.provider) unavailableModels.add(switched.event.model);
      emit(switched.event);
      if (switched.provider) provider = switched.provider;
      notes.push(switched.note);
    }
    return notes;
  };
  const onDeactivated = async (s: ActiveSkill, why: DeactivationReason): Promise<string[]> => {
    emit({ type: "skill_deactivated", skill: s.name, reason: why });
    const loaded = loadedOf(s);
    const hook = loaded ? await runHook(ctx, loaded, "post", opts.signal) : null;
    return hook ? [reportHook(hook, s.name)] : [];
  };
  const reportHook = (h: HookRun, skill: string) => {
    emitScript(h.result, { skill, hook: h.hook });
    return hookNote(h, skill);
  };

  // The session's loaded skills come back first (no new activation: they never went), in their order.
  const { restored, unavailable } = host.keepLoaded ? restoreSessionSkills(opts.activeSkills ?? [], byName, host.loaded, stack) : { restored: [], unavailable: [] };

  const messages: ChatMessage[] = [...(fork ? [] : opts.history ?? []), { role: "user", content: opts.request }];
  for (const m of messages) if (m.role === "tool" && !m.isError) meter.tag(m, stageOfHistory(m.tool, m.content));

  emit({
    type: "run_started",
    mode,
    provider: provider.name,
    model: provider.model,
    request: opts.request,
    listing: listingInfo(listing),
    systemPromptChars: systemStatic.length,
    stepLimit,
    ...(restored.length ? { activeSkills: restored } : {}),
    ...(routingNotes.length ? { routing: routingNotes } : {}),
  });
  for (const name of unavailable) {
    emit({ type: "skill_deactivated", skill: name, reason: "unavailable" });
    try {
      ctx.audit.record({ type: "skill_deactivated", actor: { id: ctx.userId }, sessionId: ctx.sessionId, model: provider.model, mode, skill: name, outcome: "ok", details: { reason: "unavailable", runId } });
    } catch {}
  }
  audit("agent_run_started", { request: maskSecrets(opts.request).slice(0, 300), listed: listing.listed, shortened: listing.shortened, omitted: listing.omitted, listing: listing.strategy });

  let steps = 0;
  try {
    if (fork) {
      const s = fork.skill;
      activateSkill(ctx, { name: s.name, layer: s.layer, digest: s.digest, baseDir: s.baseDir, ...(s.allowedTools ? { allowedTools: s.allowedTools } : {}) });
      await onActivated(stack.top()!, "fork");
    }
    loop: while (steps < stepLimit) {
      if (opts.signal?.aborted) {
        reason = "aborted";
        break;
      }
      steps++;
      const active = stack.list();
      const bodies = active.map((s) => ({ name: s.name, baseDir: s.baseDir, body: loadedOf(s)?.body ?? "" }));
      // A sub-agent has its own skill in its instructions already; what it loads itself is injected like any.
      const injected = mode === "orchestrated" ? activeSkillsBlock(fork ? bodies.filter((b) => b.name !== fork.skill.name) : bodies) : "";
      const system = injected ? `${systemStatic}\n\n${injected}` : systemStatic;
      const cost = meter.measure(steps, { system, tools: specs, messages, listing: listing.text, injectedBodies: injected });
      const started = performance.now();
      let response: ModelResponse;
      try {
        response = await provider.complete({
          system,
          messages: [...messages],
          tools: specs,
          ...(opts.signal ? { signal: opts.signal } : {}),
          onTextDelta: (text) => emit({ type: "text_delta", text }),
          hints: {
            mode,
            request: opts.request,
            skills: listing.skills,
            ...(rankingHint ? { ranking: rankingHint } : {}),
            active: bodies,
            ...(fork ? { forkSkill: fork.skill.name } : {}),
          },
        });
      } catch (e) {
        if (opts.signal?.aborted) {
          reason = "aborted";
          break;
        }
        throw e;
      }
      if (response.usage && (response.usage.inputTokens !== undefined || response.usage.outputTokens !== undefined)) {
        cost.reported = { ...(response.usage.inputTokens !== undefined ? { inputTokens: response.usage.inputTokens } : {}), ...(response.usage.outputTokens !== undefined ? { outputTokens: response.usage.outputTokens } : {}) };
      }
      costs.push(cost);
      emit({ type: "model_call", step: steps, cost, durationMs: Math.round(performance.now() - started), toolCalls: response.toolCalls.length });
      if (response.selection) emit({ type: "skill_selected", ...response.selection });

      const assistant: ChatMessage = { role: "assistant", content: response.text ?? "", ...(response.toolCalls.length ? { toolCalls: response.toolCalls } : {}) };
      messages.push(assistant);
      if (!response.toolCalls.length) {
        // Neither text nor a tool call (a server answering `choices: []`, or a body that was no answer at all) is a
        // failure, not an empty success: a trigger test run against a broken endpoint passed its negative queries.
        if (!(response.text ?? "").trim()) throw new Error(`${provider.name} (${provider.model}) answered with nothing: no text and no tool call`);
        answer = response.text ?? "";
        emit({ type: "message", text: answer });
        reason = "answered";
        break;
      }

      for (const [k, call] of response.toolCalls.entries()) {
        if (opts.signal?.aborted) {
          reason = "aborted";
          break loop;
        }
        emit({ type: "tool_call", callId: call.id, tool: call.name, input: call.input });
        if (k >= MAX_TOOL_CALLS_PER_ANSWER) {
          const output = `Not run: one answer may make at most ${MAX_TOOL_CALLS_PER_ANSWER} tool calls; ask for the rest in the next one.`;
          emit({ type: "tool_result", callId: call.id, tool: call.name, ok: false, output, durationMs: 0 });
          const msg: ChatMessage = { role: "tool", callId: call.id, tool: call.name, content: output, isError: true };
          meter.tag(msg, "other");
          messages.push(msg);
          continue;
        }
        const before = stack.list();
        const seenBefore = scripts.length;
        const result = await executor.execute({ name: call.name, input: call.input, callId: call.id });
        const tool = result.tool ?? call.name;
        // The skill whose folder the script ran from (run_script's `skill` may name one below the top).
        for (const r of scripts.slice(seenBefore)) {
          const owner = stack.list().find((s) => s.baseDir === r.skillDir) ?? stack.top();
          emitScript(r.result, { callId: call.id, ...(owner ? { skill: owner.name } : {}) });
        }

        // Activation and deactivation are read off the stack, whichever tool changed it.
        const after = stack.list();
        const notes: string[] = [];
        for (const s of before) if (!after.some((a) => a.name === s.name)) notes.push(...(await onDeactivated(s, DROP_REASON[tool] ?? "requested")));
        for (const s of after) if (!before.some((b) => b.name === s.name)) notes.push(...(await onActivated(s, VIA[tool] ?? "skill_tool")));

        const output = notes.length ? `${result.output}\n\n${notes.join("\n")}` : result.output;
        emit({ type: "tool_result", callId: call.id, tool, ok: result.ok, output, ...(result.refused ? { refused: result.refused } : {}), durationMs: result.durationMs });
        const msg: ChatMessage = { role: "tool", callId: call.id, tool, content: output, ...(result.ok ? {} : { isError: true }) };
        meter.tag(msg, result.ok ? stageOfResult(tool, result.data) : "other");
        messages.push(msg);
      }
    }
  } catch (e) {
    reason = "error";
    // Masked like the request and tool arguments: a provider's error may quote the key it was sent ("Incorrect
    // API key provided: Bearer sk-..."), and this message goes to the screen, the events and the audit.
    errorMessage = maskSecrets(e instanceof Error ? e.message : String(e));
    emit({ type: "error", message: errorMessage });
  } finally {
    // Everything this run activated goes, newest first, with post hooks.
    const removed = endRun(ctx, runId);
    for (const s of removed) {
      try {
        await onDeactivated(s, fork && s.name === fork.skill.name ? "fork_finished" : "run_finished");
      } catch {}
    }
  }
  if (reason === "step_limit") emit({ type: "error", message: `Stopped after ${stepLimit} model calls (the step limit) without an answer` });
  const durationMs = Math.round(performance.now() - t0);
  const activeSkills = stack.list().map((s) => s.name);
  emit({ type: "run_finished", reason, costs, steps, durationMs, ...(host.keepLoaded ? { activeSkills } : {}) });
  audit("agent_run_finished", { reason, steps, durationMs, activated: activatedNames, ...(errorMessage ? { error: errorMessage.slice(0, 300) } : {}) });
  return { runId, reason, answer, events, costs, messages, activated: activatedNames, activeSkills, ...(errorMessage ? { error: errorMessage } : {}) };
}
