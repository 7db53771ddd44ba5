// The agent's contract: disclosure modes, the events a run emits (streamed to the playground and the CLI),
// the conversation, the model provider interface and the run options. The playground codes against this file.
import type { AuditSink } from "../audit/events";
import type { ResolveContext, SkillEntry } from "../registry/types";
import type { SkillIndex } from "../registry/skill-index";
import type { ScriptRunner } from "../sandbox/types";
import type { SkillStack } from "../tools/stack";
import type { RoutingExtras } from "./routing-settings";

/** How skills are disclosed to the model (DESIGN.md "Three disclosure modes"). */
export { DISCLOSURE_MODES, type DisclosureMode } from "../../domain/vocabulary";
import type { DisclosureMode } from "../../domain/vocabulary";

export type ProviderName = "offline" | "openai" | "anthropic";
export const PROVIDER_NAMES: readonly ProviderName[] = ["offline", "openai", "anthropic"];

// ---------------------------------------------------------------------------------------------------------
// Costs

export interface StageUsage {
  chars: number;
  /** Estimated (o200k_base), see skill/tokens.ts. */
  tokens: number;
}

/**
 * What one model call carried, per disclosure stage: stage 1 the skill listing, stage 2 the activated
 * skill bodies in the context, stage 3 resources read and script output in the context.
 */
export interface StageCost {
  /** 1-based model call number in the run (sub-agents count their own calls). */
  step: number;
  stage1: StageUsage;
  stage2: StageUsage;
  stage3: StageUsage;
  /** Everything else sent: system prompt rules, tool schemas, the conversation. */
  other: StageUsage;
  /** What the provider reported, when it did (real providers only). */
  reported?: { inputTokens?: number; outputTokens?: number };
}

// ---------------------------------------------------------------------------------------------------------
// The listing (stage 1)

export interface ListingInfo {
  /** The exact text the model sees (inside the skill tool description or the system prompt). */
  text: string;
  chars: number;
  tokens: number;
  budgetChars: number;
  /** Skills available to this run (after resolution). */
  total: number;
  /** Skills that appear in the listing. */
  listed: number;
  /** Listed with a shortened description. */
  shortened: number;
  /** Left out entirely (the closing line says how many and that the search tool finds them). */
  omitted: number;
  omittedNames: string[];
  /** "all": the whole catalog fits (name order); "ranked": the best-ranked for the request, then names. */
  strategy: "all" | "ranked";
  /** Names listed with a description (shortened or not), in listing order. */
  described: string[];
  /** Names listed without a description. */
  nameOnly: string[];
  /** Names listed with a shortened description. */
  shortenedNames: string[];
  /** One sentence: how the listing was fitted to the budget. */
  why: string;
}

// ---------------------------------------------------------------------------------------------------------
// Events

/** How a skill became active. */
export type ActivationVia = "skill_tool" | "read_skill_md" | "skills.load" | "fork";

/** "unavailable": a skill the session had loaded is no longer effective (blocked, removed, out of scope) at the next turn. */
export type DeactivationReason = "requested" | "unloaded" | "replaced" | "run_finished" | "fork_finished" | "unavailable";

interface EventBase {
  runId: string;
  /** Milliseconds since the run started. */
  t: number;
  /** 0 for the main agent, 1+ inside a `context: fork` sub-agent. */
  depth: number;
  /** The skill a sub-agent runs (depth > 0). */
  forkSkill?: string;
}

export type AgentEvent = EventBase &
  (
    | {
        type: "run_started";
        mode: DisclosureMode;
        provider: string;
        model: string;
        request: string;
        listing: ListingInfo;
        systemPromptChars: number;
        stepLimit: number;
        /** Skills the session had loaded before this run (orchestrated mode), injected from the first call on. */
        activeSkills?: string[];
        /** How the request was routed, when there is something to say (meaning search failed, the model's pick). */
        routing?: string[];
      }
    | {
        type: "model_call";
        step: number;
        cost: StageCost;
        durationMs: number;
        /** How many tool calls the model asked for. */
        toolCalls: number;
      }
    | { type: "skill_selected"; skill: string; reason: string; score: number }
    | {
        type: "skill_activated";
        skill: string;
        layer: string;
        digest: string;
        allowedTools: string[] | null;
        via: ActivationVia;
        baseDir: string;
      }
    | { type: "skill_deactivated"; skill: string; reason: DeactivationReason }
    /** An activated skill's `model` field: the rest of the run uses it (used), or why it cannot (detail). */
    | { type: "skill_model"; skill: string; model: string; used: boolean; provider: string; detail: string }
    | { type: "tool_call"; callId: string; tool: string; input: unknown }
    | {
        type: "tool_result";
        callId: string;
        tool: string;
        ok: boolean;
        output: string;
        refused?: { skill: string; allowed: string[]; rule: "allowed-tools" | "script-read" };
        durationMs: number;
      }
    | {
        type: "script_run";
        /** The tool call that ran it; absent for hooks. */
        callId?: string;
        skill?: string;
        hook?: "pre" | "post";
        command: string[];
        exitCode: number | null;
        stdout: string;
        stderr: string;
        durationMs: number;
        sandboxed: boolean;
        truncated: boolean;
        timedOut: boolean;
        refused?: string;
      }
    | { type: "text_delta"; text: string }
    | { type: "message"; text: string }
    | { type: "error"; message: string }
    | {
        type: "run_finished";
        reason: RunFinishReason;
        costs: StageCost[];
        steps: number;
        durationMs: number;
        /** What stays loaded for the session's next turn (orchestrated mode with a session). */
        activeSkills?: string[];
      }
  );

type AgentEventType = AgentEvent["type"];
export type RunFinishReason = "answered" | "step_limit" | "aborted" | "error";

// ---------------------------------------------------------------------------------------------------------
// Conversation and providers

export interface ModelToolCall {
  /** The model's id for the call (generated when the model gave none). */
  id: string;
  /** Canonical tool name (skills.load, read_file); providers translate wire names back. */
  name: string;
  input: unknown;
}

export type ChatMessage =
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: ModelToolCall[] }
  | { role: "tool"; callId: string; tool: string; content: string; isError?: boolean };

export interface ModelToolSpec {
  name: string;
  description: string;
  /** JSON schema of the input. */
  parameters: Record<string, unknown>;
}

/** Structured facts for the offline provider (real models see only system/messages/tools). */
export interface ModelHints {
  mode: DisclosureMode;
  /** The user's request of this run. */
  request: string;
  /** The skills in the listing. */
  skills: { name: string; description: string; location: string }[];
  /** The one ranking of every available skill for the request (best first), when the loop computed it. */
  ranking?: {
    hits: { name: string; description: string; location: string; score: number; confidence: number; why: string }[];
    /** No skill serves the request well enough. */
    abstain: boolean;
    reason?: string;
    searched: number;
  };
  /** Active skills (bottom first) with their bodies, as the loop knows them. */
  active: { name: string; baseDir: string; body: string }[];
  /** Set inside a fork sub-agent: the skill whose body is the instructions. */
  forkSkill?: string;
}

export interface ModelRequest {
  system: string;
  messages: ChatMessage[];
  tools: ModelToolSpec[];
  signal?: AbortSignal;
  /** Streamed text, when the provider can stream. */
  onTextDelta?: (text: string) => void;
  hints: ModelHints;
}

export interface ModelResponse {
  text: string;
  toolCalls: ModelToolCall[];
  usage?: { inputTokens?: number; outputTokens?: number };
  /** The offline provider explains which skill it picked and why. */
  selection?: { skill: string; reason: string; score: number };
}

export interface ModelProvider {
  name: string;
  model: string;
  /** Context window in tokens; the default listing budget is 1% of it in characters (4 chars/token, listing.ts). */
  contextTokens: number;
  complete(request: ModelRequest): Promise<ModelResponse>;
}

// ---------------------------------------------------------------------------------------------------------
// Running

/** Where the run's skills come from: the effective list, or an index resolved with a context. */
export type AgentSkillSource =
  | SkillEntry[]
  | { index: SkillIndex; context?: ResolveContext };

export interface AgentRunOptions {
  request: string;
  /** Earlier turns of the conversation (the playground session). Not shown to fork sub-agents. */
  history?: ChatMessage[];
  mode: DisclosureMode;
  provider: ModelProvider;
  skills: AgentSkillSource;
  /** Meaning fused with words and the model's pick among the top k, as the host's settings turn them on. */
  routing?: RoutingExtras;
  /**
   * false: skills are off (config.yaml `skills.enabled: false`, OMNIFORGE_SKILLS_ENABLED): no listing, no skill
   * tools, nothing about skills in the prompt (seed 003). A context with `skillsEnabled: false` says the same.
   */
  skillsEnabled?: boolean;
  /**
   * The tenant, agent and environment the skills were resolved for, for the audit of activations (seed 000). By
   * default those of `skills`' resolution context (its values, else its scope defaults).
   */
  scope?: { tenant?: string; agent?: string; environment?: string };
  /**
   * The registry index a list of `skills` came from: the one ranking then follows it instead of reading every
   * body for this run (a playground session's chosen subset of a big catalog).
   */
  searchIndex?: SkillIndex;
  /** Runs scripts and hooks; absent means script tools answer that scripts cannot run here. */
  runner?: ScriptRunner;
  audit: AuditSink;
  /** Absolute per-session scratch folder (write_file, /scratch for scripts). */
  scratchDir: string;
  sessionId: string;
  userId: string;
  /** A session's stack, to keep skills the user pinned across runs; a fresh one by default. */
  stack?: SkillStack;
  /** Model calls before the run stops (default 12). */
  stepLimit?: number;
  /** Character budget of the listing (default: listingBudgetFor(provider.contextTokens)). */
  listingBudgetChars?: number;
  /** orchestrated mode: most skills loaded at once (default 3, OMNIFORGE_MAX_LOADED_SKILLS). */
  maxLoadedSkills?: number;
  /** Most skills on one activation chain, across fork sub-agents (default 5, OMNIFORGE_MAX_ACTIVATION_DEPTH). */
  maxActivationDepth?: number;
  /**
   * orchestrated mode: the session's `active_skills` (spec 004), most recent last. Given (even empty), the run
   * belongs to a session: these are loaded before the first call, what skills.load loads stays loaded when the
   * run ends (until skills.unload), and the result's `activeSkills` is what to pass to the next turn. Absent, the
   * run is its own session and releases everything it loaded.
   */
  activeSkills?: string[];
  /**
   * The host's answer to a skill's `model` field: a provider running that model, or why there is none (the
   * provider is not configured). Absent: the field is reported as not honoured here and the run keeps its model.
   */
  modelFor?: (model: string) => ModelProvider | string;
  signal?: AbortSignal;
  onEvent?: (event: AgentEvent) => void;
}

export interface AgentRunResult {
  runId: string;
  reason: RunFinishReason;
  /** The final answer ("" when the run did not answer). */
  answer: string;
  events: AgentEvent[];
  costs: StageCost[];
  /** The conversation of this run (history + this turn, with tool calls and results). */
  messages: ChatMessage[];
  /** Skills activated during the run, in order (all deactivated again when it ended). */
  activated: string[];
  /** Skills still active when the run ended, most recent last (the session's `active_skills`). */
  activeSkills: string[];
  error?: string;
}
