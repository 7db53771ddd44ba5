// The playground's own vocabulary on top of the agent's events: notes the playground adds to a turn's stream
// (sandbox status, a script waiting for a free slot), the persisted turn record, and the service's errors.
import { serviceErrorClass } from "../../domain/errors";
import type { AgentEvent, DisclosureMode, ListingInfo, RunFinishReason } from "../../runtime/agent";

export type PlaygroundNote =
  | { type: "sandbox"; mode: string; detail: string }
  | { type: "script_queued"; running: number; limit: number; waiting: number }
  | { type: "script_waited"; waitedMs: number };

export type StreamEvent = AgentEvent | (PlaygroundNote & { t: number });

/** One item of a turn's live stream. `seq` is the position in the turn (followers resume from it). */
export interface StreamItem {
  seq: number;
  turn: number;
  event: StreamEvent;
}

/** Why a turn lost its claim on its session (turn-claims.ts): a stable code, kept in the turn's record. */
export type ClaimLapse = "claim.taken" | "claim.unrenewed";

/** What the assistant row's `events` column holds. */
export interface TurnRecord {
  mode: DisclosureMode;
  provider: string;
  model: string;
  reason: RunFinishReason;
  error?: string;
  /** Set when the turn stopped because its claim on the session lapsed (turn-claims.ts): then `error` says why. */
  claimLapse?: ClaimLapse;
  /** The turn whose request this turn replayed (in another mode). */
  replayOf?: number;
  /** Orchestrated turns: the session's active_skills when the turn ended (spec 004), most recent last. */
  activeSkills?: string[];
  events: StreamEvent[];
}

type RunStarted = Extract<AgentEvent, { type: "run_started" }>;
type RunFinished = Extract<AgentEvent, { type: "run_finished" }>;
type ToolResult = Extract<AgentEvent, { type: "tool_result" }>;

// The history's form of a turn's events (history.ts): what `playground.get` sends.

/** A listing without its text and name lists: the counts, the strategy and the sentence saying why. */
export interface ListingSummary extends Omit<ListingInfo, "text" | "described" | "nameOnly" | "shortenedNames" | "omittedNames"> {
  /** The text and the names are left out here: `turnListing` gives them. */
  detailsOmitted: true;
  /** Listed with a description (shortened or not). */
  describedCount: number;
  /** Listed by name only. */
  nameOnlyCount: number;
}

export type RunStartedSummary = Omit<RunStarted, "listing"> & { listing: ListingSummary };
/** The model_call events carry the same costs, one per call. */
export type RunFinishedSummary = Omit<RunFinished, "costs">;
/** A tool's long output (a SKILL.md, a file read) is shown when the person opens the call: `toolOutput` gives it. */
export type ToolResultSummary = Omit<ToolResult, "output"> & { outputChars: number };
/** One event of a turn as the history sends it. */
export type HistoryEvent = Exclude<StreamEvent, RunStarted | RunFinished | ToolResult> | RunStartedSummary | RunFinishedSummary | ToolResult | ToolResultSummary;

/** What the user row's `events` column holds. */
export interface RequestRecord {
  mode: DisclosureMode;
  replayOf?: number;
}

export type PlaygroundErrorCode = "BAD_REQUEST" | "FORBIDDEN" | "NOT_FOUND" | "CONFLICT";

/** The playground service's ServiceError. */
export const PlaygroundError = serviceErrorClass<PlaygroundErrorCode>("PlaygroundError");
export type PlaygroundError = InstanceType<typeof PlaygroundError>;
