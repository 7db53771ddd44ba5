// A trigger run: each query goes through the agent's own selection path (runAgent: the resolved catalog, the
// listing under the provider's budget, the chosen disclosure mode and provider) N times, and we record which
// skills fired. A run stops at its first activation: whether the skill fires is the question, not what it does.
import { MemoryAuditSink, type AuditSink } from "../audit/events";
import { runAgent } from "../agent/loop";
import { router } from "../agent/routing";
import { effectiveSkills } from "../agent/skill-source";
import type { AgentEvent, AgentSkillSource, DisclosureMode, ListingInfo, ModelProvider, StageCost } from "../agent/types";
import type { SkillIndex } from "../registry/skill-index";
import { agentOptions } from "./agent-options";
import type { RoutingExtras } from "../agent/routing-settings";
import type { TriggerCase } from "./format";
import { MAX_RUNS } from "../../domain/limits";
import { yieldToEventLoop } from "../turns";

/** A query passes when its trigger rate is on the right side of this (skill-creator's 0.5). */
export const DEFAULT_THRESHOLD = 0.5;
/** Runs per query: model providers vary, the offline provider is deterministic. */
export const defaultRuns = (provider: string) => (provider === "offline" ? 1 : 3);
export { MAX_RUNS };

export type ListedAs = "described" | "name-only" | "omitted" | "absent";

export interface QueryResult {
  query: string;
  should_trigger: boolean;
  /** Share of the runs in which the skill fired, 0..1 (over the runs that did not error). */
  triggered: number;
  passed: boolean;
  /** Every run failed at the provider: neither passed nor failed. */
  errored: boolean;
  error?: string;
  /** Skills that fired, in any run (the skill under test included when it fired). */
  chosen: string[];
  runs: number;
  /** Estimated tokens sent (the provider's own count when it reports one), summed over the runs. */
  tokens: number;
  ms: number;
  /** How the skill under test appeared in this query's listing. */
  listed: ListedAs;
  listingChars: number;
  /** For a failed query: the ranking's top skills and why each matched (which request words met which field). */
  why?: string[];
  /** The model's stated reason for its pick, when it gave one. */
  reason?: string;
}

export interface TriggerRunOptions {
  /** Name of the skill under test. */
  skill: string;
  cases: readonly TriggerCase[];
  /** The catalog as the user has it (same resolution as the playground). */
  skills: AgentSkillSource;
  searchIndex?: SkillIndex;
  provider: ModelProvider;
  mode: DisclosureMode;
  runs?: number;
  threshold?: number;
  listingBudgetChars?: number;
  /** Meaning search and the model's pick, as the host's settings turn them on: the agent's routing, unchanged. */
  routing?: RoutingExtras;
  scratchDir: string;
  audit?: AuditSink;
  userId?: string;
  signal?: AbortSignal;
  /** Told about each query as it finishes, in order. */
  onResult?: (result: QueryResult, index: number) => void;
}

const tokensOf = (costs: StageCost[]) =>
  costs.reduce((n, c) => n + (c.reported?.inputTokens !== undefined ? c.reported.inputTokens + (c.reported.outputTokens ?? 0) : c.stage1.tokens + c.stage2.tokens + c.stage3.tokens + c.other.tokens), 0);

function listedAs(listing: ListingInfo | undefined, name: string): ListedAs {
  if (!listing) return "absent";
  if (listing.described.includes(name)) return "described";
  if (listing.nameOnly.includes(name)) return "name-only";
  if (listing.omittedNames.includes(name)) return "omitted";
  return "absent";
}

/** Runs every case; returns the results in case order. Stops early when `signal` aborts: the query it cut into and the rest are not reported. */
export async function runTriggerEval(opts: TriggerRunOptions): Promise<QueryResult[]> {
  const runs = Math.max(1, Math.min(MAX_RUNS, Math.floor(opts.runs ?? defaultRuns(opts.provider.name))));
  const threshold = opts.threshold ?? DEFAULT_THRESHOLD;
  const audit = opts.audit ?? new MemoryAuditSink();
  // One ranking for the explanations of failed queries: the same router the loop builds.
  let explain: ReturnType<typeof router> | null = null;
  const results: QueryResult[] = [];
  for (let i = 0; i < opts.cases.length; i++) {
    // A turn of the event loop between queries: with the offline provider nothing awaited is I/O, so a set of 500
    // queries held the console's thread from its first query to its last.
    if (i > 0) await yieldToEventLoop();
    if (opts.signal?.aborted) break;
    const c = opts.cases[i]!;
    const chosen = new Set<string>();
    let fired = 0;
    let errors = 0;
    let error: string | undefined;
    let tokens = 0;
    let listing: ListingInfo | undefined;
    let reason: string | undefined;
    const t0 = performance.now();
    for (let r = 0; r < runs; r++) {
      if (opts.signal?.aborted) break;
      const stop = new AbortController();
      const onAbort = () => stop.abort();
      opts.signal?.addEventListener("abort", onAbort, { once: true });
      let activated: string | null = null;
      try {
        const result = await runAgent({
          ...agentOptions(opts),
          request: c.query,
          audit,
          sessionId: `eval-${opts.skill}`,
          userId: opts.userId ?? "eval",
          stepLimit: 4,
          signal: stop.signal,
          onEvent: (e: AgentEvent) => {
            if (e.type === "run_started" && !listing) listing = e.listing;
            if (e.type === "skill_selected" && e.skill === opts.skill && !reason) reason = e.reason;
            if (e.type === "skill_activated" && e.depth === 0 && !activated) {
              activated = e.skill;
              stop.abort(); // the question is answered
            }
          },
        });
        tokens += tokensOf(result.costs);
        if (activated) chosen.add(activated);
        if (activated === opts.skill) fired++;
        else if (!activated && result.reason === "error") {
          errors++;
          error ??= result.error ?? "the provider failed";
        }
      } catch (e) {
        errors++;
        error ??= (e as Error).message;
      } finally {
        opts.signal?.removeEventListener("abort", onAbort);
      }
    }
    // Cancelled before every run of this query finished: its rate would be over runs that never happened (or were
    // cut short), a false FAIL; the query is left unreported like the rest of the set.
    if (opts.signal?.aborted) break;
    const counted = runs - errors;
    const rate = counted > 0 ? fired / counted : 0;
    const errored = counted === 0;
    const passed = !errored && (c.should_trigger ? rate >= threshold : rate < threshold);
    const result: QueryResult = {
      query: c.query,
      should_trigger: c.should_trigger,
      triggered: Math.round(rate * 1000) / 1000,
      passed,
      errored,
      ...(error ? { error } : {}),
      chosen: [...chosen],
      runs,
      tokens,
      ms: Math.round(performance.now() - t0),
      listed: listedAs(listing, opts.skill),
      listingChars: (listing as ListingInfo | undefined)?.chars ?? 0,
      ...(reason ? { reason } : {}),
    };
    if (!passed && !errored) {
      // The same router the runs used (meaning fused when configured), so the why is the ranking the agent had.
      explain ??= router(opts.skills, effectiveSkills(opts.skills), opts.searchIndex, opts.routing?.meaning);
      const ranked = (await explain.route(c.query, { mode: opts.mode, budgetChars: 1 })).ranked;
      result.why = ranked.hits.slice(0, 3).map((h) => `${h.name}: ${h.why}`);
    }
    results.push(result);
    opts.onResult?.(result, i);
  }
  return results;
}
