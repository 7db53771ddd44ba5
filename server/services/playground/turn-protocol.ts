// The messages between the console's thread and the playground's turn worker (turn-worker.ts). Plain data only:
// they are copied across threads (structured clone keeps Dates).
import type { DataHome } from "../../config";
import type { ChatMessage, DisclosureMode, RunFinishReason } from "../../runtime/agent";
import type { StreamEvent } from "./types";
import type { AuditEvent } from "../../runtime/audit/events";
import type { PlaygroundSession } from "./sessions";

export interface TurnJob {
  /** Unique per turn: `${sessionId}#${turn}`. */
  id: string;
  request: string;
  history: ChatMessage[];
  mode: DisclosureMode;
  session: PlaygroundSession;
  dataHome: DataHome;
  /** The console's PostgreSQL URL, or null for the data home's SQLite file: the database the worker opens. */
  database: string | null;
  env: Record<string, string | undefined>;
  stepLimit?: number;
  /** The session's active_skills when the turn starts (spec 004; orchestrated turns load them first). */
  activeSkills: string[];
}

export interface TurnOutcome {
  answer: string;
  provider?: string;
  model?: string;
  reason: RunFinishReason;
  error?: string;
  /** What the run leaves loaded (orchestrated mode), for the session's next turn. */
  activeSkills?: string[];
}

/** A playground.listing preview: reads every available SKILL.md and ranks the catalog, so it runs there too. */
export interface ListingCall {
  id: string;
  dataHome: DataHome;
  database: string | null;
  env: Record<string, string | undefined>;
  actor: { id: string; role: "viewer" | "author" | "admin" };
  sessionId: string;
  mode?: DisclosureMode;
  request: string;
}

export type ToWorker =
  | { type: "run"; job: TurnJob }
  | { type: "listing"; call: ListingCall }
  | { type: "abort"; id: string }
  /** The console wrote skill files: the worker's indexes re-read them now, as the console's own do. */
  | { type: "refresh"; paths: string[] };

export type FromWorker =
  | { type: "event"; id: string; event: StreamEvent }
  | { type: "audit"; id: string; event: AuditEvent }
  | { type: "done"; id: string; outcome: TurnOutcome }
  | { type: "listed"; id: string; value?: unknown; error?: string }
  /** Sent once its modules are loaded: from then on a turn starts without the start-up cost. */
  | { type: "ready" };
