// Turns: one at a time per session, run in the background (in the turn worker, turn-pool.ts, so a chat's CPU
// work never stalls the console's requests), streamed to any number of followers, stoppable, and persisted with
// their events when they end, however they end. The live events stay in the server running the turn; the session's
// claim (turn-claims.ts) says on every server that a turn runs and refuses a second one, and a stop is asked through
// the database (services/stops), so it reaches the turn whichever server the person's Stop lands on.
import type { Db } from "../../../db/client";
import type { AuditSink } from "../../runtime/audit/events";
import { requestStop, watchStop } from "../stops";
import { databaseUnreachableMessage, postgresUrl } from "../../../db/dialect";
import type { DisclosureMode, RunFinishReason } from "../../runtime/agent";
import { processWide } from "../../process-wide";
import { appendMessage, ownSession, readableSession, touchSession, turnRecord, type Actor, type PlaygroundMessage, type PlaygroundSession } from "./sessions";
import { runInWorker } from "./turn-pool";
import type { TurnJob } from "./turn-protocol";
import { runTurnJob } from "./turn-run";
import { PlaygroundError, type ClaimLapse, type StreamEvent, type StreamItem, type TurnRecord } from "./types";
import { processEnv, setting } from "../../../env";
import { keepAnswerFacts, turnContext } from "./turn-context";
import { keepHistoryRow } from "./history";
import type { TurnDeps } from "./turn-deps";
import { claimSession, claimTurn, fenceClaim, onClaimLapse, releaseClaim, remoteTurnEnded, runningTurn } from "./turn-claims";
import { inTransaction } from "../../../db/transaction";
import { setTimeout as delay } from "node:timers/promises";

export interface TurnInput {
  request?: string;
  /** Another disclosure mode for this turn only (the session keeps its own). */
  mode?: DisclosureMode;
  /** Replays the request of this earlier turn, with the conversation as it was before it. */
  replayOf?: number;
}

interface RunningTurn {
  sessionId: string;
  userId: string;
  turn: number;
  mode: DisclosureMode;
  startedAt: number;
  controller: AbortController;
  items: StreamItem[];
  done: boolean;
  wake: Set<() => void>;
  finished: Promise<void>;
  /** Set when the session's claim lapsed: the turn was stopped for it, and its results are not kept. */
  lapsed?: ClaimLapse;
}

const MAX_REQUEST = 20_000;
const MAX_PERSISTED_TEXT = 20_000;

/** This server's running turns, with their live events. */
const running = processWide("playgroundTurns", () => new Map<string, RunningTurn>());
/** Sessions whose turn is being set up (its history read, its request stored) and not yet in `running`. */
const starting = processWide("playgroundTurnsStarting", () => new Set<string>());
/** Claims of turns that ended here, while their release is on its way to the database. */
const releasing = processWide("playgroundClaimsReleasing", () => new Map<string, Promise<void>>());

const busy = () => new PlaygroundError("CONFLICT", "A turn is already running in this session: wait for it to finish or stop it first");

const clip = (s: string) => (s.length > MAX_PERSISTED_TEXT ? `${s.slice(0, MAX_PERSISTED_TEXT)}\n… (${s.length - MAX_PERSISTED_TEXT} more characters not kept)` : s);

/**
 * What is kept of a turn's events: consecutive streaming deltas merged into one (the text a model wrote next to
 * its tool calls is its "why"), long outputs clipped.
 */
export function persistable(events: StreamEvent[]): StreamEvent[] {
  const out: StreamEvent[] = [];
  for (const e of events) {
    if (e.type === "text_delta") {
      const last = out.at(-1);
      if (last?.type === "text_delta" && last.depth === e.depth) out[out.length - 1] = { ...last, text: clip(last.text + e.text) };
      else out.push({ ...e, text: clip(e.text) });
      continue;
    }
    if (e.type === "script_run") out.push({ ...e, stdout: clip(e.stdout), stderr: clip(e.stderr) });
    else if (e.type === "tool_result") out.push({ ...e, output: clip(e.output) });
    else out.push(e);
  }
  return out;
}

/**
 * Starts a turn and returns at once with its number; follow it with followTurn. Refused with CONFLICT while
 * another turn of the session runs.
 */
export async function startTurn(deps: TurnDeps, actor: Actor, sessionId: string, input: TurnInput): Promise<{ turn: number; mode: DisclosureMode }> {
  const session = await ownSession(deps.db, actor, sessionId);
  const turns = running();
  if (turns.has(sessionId) || starting().has(sessionId)) throw busy();
  // Reserved with no await since the check, so two sends at once here cannot both start; held until the turn runs.
  starting().add(sessionId);
  try {
    // Then the database's claim, which a turn on another server holds too (this server's last one released first).
    await releasing().get(sessionId);
    const claim = await claimSession(deps.db, sessionId, input.mode ?? session.mode);
    if (!claim) throw busy();
    try {
      return await beginTurn(deps, actor, session, sessionId, input, claim);
    } catch (e) {
      await releaseClaim(deps.db, claim);
      throw e;
    }
  } finally {
    starting().delete(sessionId);
  }
}

async function beginTurn(deps: TurnDeps, actor: Actor, session: PlaygroundSession, sessionId: string, input: TurnInput, claim: string): Promise<{ turn: number; mode: DisclosureMode }> {
  const turns = running();
  let request = input.request?.trim() ?? "";
  let beforeTurn: number | undefined;
  // The session's rows, read once for the whole start (its records only where this server has not met them).
  const context = await turnContext(deps.db, sessionId);
  if (input.replayOf !== undefined) {
    const original = context.requestOf(input.replayOf);
    if (original === undefined) throw new PlaygroundError("NOT_FOUND", `Turn ${input.replayOf} has no request to replay`);
    request = original;
    beforeTurn = input.replayOf;
  }
  if (!request) throw new PlaygroundError("BAD_REQUEST", "Write a request first");
  if (request.length > MAX_REQUEST) throw new PlaygroundError("BAD_REQUEST", `A request is limited to ${MAX_REQUEST} characters`);
  const mode = input.mode ?? session.mode;

  const history = context.history(beforeTurn);
  const activeBefore = context.activeSkills(beforeTurn);
  const turn = context.nextTurn;
  keepHistoryRow(deps.db, sessionId, await appendMessage(deps.db, sessionId, turn, "user", request, { mode, ...(input.replayOf !== undefined ? { replayOf: input.replayOf } : {}) }));
  await touchSession(deps.db, sessionId);
  await claimTurn(deps.db, claim, turn);
  const state: RunningTurn = {
    sessionId,
    userId: actor.id,
    turn,
    mode,
    startedAt: Date.now(),
    controller: new AbortController(),
    items: [],
    done: false,
    wake: new Set(),
    finished: Promise.resolve(),
  };
  turns.set(sessionId, state);
  onClaimLapse(claim, (why) => {
    state.lapsed = why;
    state.controller.abort();
  });
  const unwatch = watchStop(deps.db, "turn", stopTarget(sessionId, turn), state.controller);
  const push = (event: StreamEvent) => {
    state.items.push({ seq: state.items.length, turn, event });
    for (const w of state.wake) w();
  };

  state.finished = (async () => {
    const job: TurnJob = { id: `${sessionId}#${turn}`, request, history, mode, session, dataHome: deps.dataHome, database: postgresUrl(deps.db), env: { ...(deps.env ?? processEnv()) }, activeSkills: activeBefore, ...(deps.stepLimit ? { stepLimit: deps.stepLimit } : {}) };
    const hooks = { push, audit: deps.audit, signal: state.controller.signal };
    // Off the request path in the turn worker; in this thread only with a runner handed in (tests) or when switched off.
    const inThread = deps.runner !== undefined || !setting("OMNIFORGE_TURN_WORKER", deps.env ?? processEnv());
    const outcome = inThread ? await runTurnJob(deps.db, job, { ...hooks, runner: deps.runner }) : await runInWorker(job, hooks);
    const answer = outcome.answer;
    // A lapse while the run ran stopped it; one after it ended (its answer waiting for the database) stopped nothing.
    const stoppedBy = state.lapsed;
    const record: TurnRecord = {
      mode,
      provider: outcome.provider ?? session.provider,
      model: outcome.model ?? session.model,
      reason: outcome.reason,
      events: [],
      ...(outcome.error ? { error: outcome.error } : {}),
      // Orchestrated turns record what they leave loaded: the next turn of the session starts from it (spec 004).
      ...(mode === "orchestrated" && outcome.activeSkills ? { activeSkills: outcome.activeSkills } : {}),
    };
    record.events = persistable(state.items.map((i) => i.event));
    if (input.replayOf !== undefined) record.replayOf = input.replayOf;
    try {
      let stored: PlaygroundMessage | undefined;
      await storedOnceAnswering((again) =>
        inTransaction(deps.db, async (tx) => {
          stored = undefined; // a try that did not commit left its row id to nobody
          // A try before this one may have committed with its answer lost on the way back.
          if (again && (await turnRecord(tx, sessionId, turn))) return;
          // Fenced: written only while the claim is still this turn's. A turn that lost it keeps only why it stopped:
          // another server may run the session now, and its turn must not find this one's answer or skills after it.
          // While the row is still its own, a whole answer is kept even if the claim lapsed as it waited to be stored.
          const lapsed = (await fenceClaim(tx, claim)) ? stoppedBy : (state.lapsed ?? "claim.taken");
          const kept = lapsed ? lapsedRecord(record, lapsed) : record;
          const message = await appendMessage(tx, sessionId, turn, "assistant", lapsed ? failureText(kept.reason, kept.error) : answer || stoppedText(state.items, record.reason) || failureText(record.reason, record.error), kept);
          await touchSession(tx, sessionId);
          stored = message;
        }),
      );
      // Committed: the session's next turn and the page's next read here take it without reading it back.
      if (stored) {
        keepAnswerFacts(deps.db, stored.id, sessionId, stored.record ?? null);
        keepHistoryRow(deps.db, sessionId, stored);
      }
    } catch {
      // The session was deleted while the turn ran: nothing left to keep it in.
    }
  })().finally(async () => {
    // After the answer is stored: a server that sees the claim gone finds the whole turn in the history. The followers
    // here are told at once (a database slow to answer never holds them); a Send here waits for the release.
    const released = releaseClaim(deps.db, claim);
    releasing().set(sessionId, released);
    state.done = true;
    turns.delete(sessionId);
    for (const w of state.wake) w();
    await released;
    if (releasing().get(sessionId) === released) releasing().delete(sessionId);
    await unwatch();
  });
  return { turn, mode };
}

/** How often a turn's end asks again to store its answer while the database does not answer, and for how long. */
const STORE_RETRY_MS = 2_000;
const STORE_FOR_MS = 5 * 60_000;

/**
 * Runs the write of a turn's answer until the database takes it: a turn that ended (or was stopped because its claim
 * lapsed) while the database was away kept nothing, and the session showed its request without an answer or a
 * reason. Other failures are thrown as they are. Said once in the log while it waits, as one line.
 */
async function storedOnceAnswering(write: (again: boolean) => Promise<void>): Promise<void> {
  const until = Date.now() + STORE_FOR_MS;
  let said = false;
  for (let again = false; ; again = true) {
    try {
      return await write(again);
    } catch (e) {
      const line = databaseUnreachableMessage(e);
      if (!line) throw e;
      if (Date.now() >= until) return void console.error(`[omniforge] a playground turn's answer was not kept: ${line}`);
      if (!said) console.error(`[omniforge] a playground turn's answer waits for the database: ${line}`);
      said = true;
      await delay(STORE_RETRY_MS);
    }
  }
}

/** Why a turn that lost its claim stopped, as its record says it. */
const LAPSE_TEXT: Record<ClaimLapse, string> = {
  "claim.taken": "this server lost its claim on the session (another console server took it over after the claim had lapsed), so the turn was stopped and its results were not kept",
  "claim.unrenewed": "the database did not answer long enough for this server to keep its claim on the session, so the turn was stopped before another server could start one beside it",
};

/** The record of a turn that lost its claim: the reason and its events, without what would carry into the next turn. */
function lapsedRecord(record: TurnRecord, why: ClaimLapse): TurnRecord {
  const kept: TurnRecord = { ...record, reason: "error", error: LAPSE_TEXT[why], claimLapse: why };
  delete kept.activeSkills;
  return kept;
}

/**
 * A turn stopped while the answer streamed keeps the part its follower already saw (the deltas after the last
 * other event), marked as cut: the history should not swap what was read for "stopped before an answer".
 */
function stoppedText(items: readonly StreamItem[], reason: RunFinishReason): string {
  if (reason !== "aborted") return "";
  let text = "";
  for (let i = items.length - 1; i >= 0; i--) {
    const e = items[i]!.event;
    if (e.type === "text_delta") text = e.text + text;
    else if (e.type !== "run_finished" && e.type !== "error") break;
  }
  return text.trim() ? `${clip(text)}\n\n(Stopped mid-answer.)` : "";
}

export function failureText(reason: RunFinishReason, error?: string): string {
  if (reason === "aborted") return "(Stopped before an answer.)";
  if (reason === "step_limit") return `(No answer: ${error ?? "the step limit was reached"}.)`;
  return `(The turn failed: ${error ?? "unknown error"}.)`;
}

/**
 * The running turn's items from `from` on, live, until it ends. Ends at once when no turn runs (the client
 * then reads the persisted history). A turn another server runs streams nothing here: the follow ends when that
 * turn has ended, so the client reads the history once, with the whole turn in it. Only a person who may read the
 * session may follow it.
 */
export async function followTurn(db: Db, actor: Actor, sessionId: string, from = 0, signal?: AbortSignal): Promise<AsyncGenerator<StreamItem>> {
  await readableSession(db, actor, sessionId); // checked now, not on the first item, so a refusal is the caller's error
  return stream(db, sessionId, running().get(sessionId), from, signal);
}

async function* stream(db: Db, sessionId: string, state: RunningTurn | undefined, from: number, signal?: AbortSignal): AsyncGenerator<StreamItem> {
  if (!state) return await remoteTurnEnded(db, sessionId, signal);
  let next = Math.max(0, from);
  while (!signal?.aborted) {
    while (next < state.items.length) yield state.items[next++]!;
    if (state.done) return;
    await new Promise<void>((resolve) => {
      const wake = () => {
        state.wake.delete(wake);
        signal?.removeEventListener("abort", wake);
        resolve();
      };
      state.wake.add(wake);
      signal?.addEventListener("abort", wake, { once: true });
    });
  }
}

/** What a turn's stop request names: the session and the turn, so a stop asked late never reaches the next turn. */
const stopTarget = (sessionId: string, turn: number) => `${sessionId}#${turn}`;

/**
 * Stops the session's running turn (owner or administrator), whichever server runs it: the request is stored and
 * audited once, and the running server aborts the turn at its next look (this server's at once). False when no
 * turn was running.
 */
export async function stopTurn(deps: { db: Db; audit: AuditSink }, actor: Actor & { email?: string }, sessionId: string): Promise<boolean> {
  const s = await readableSession(deps.db, actor, sessionId);
  if (s.userId !== actor.id && actor.role !== "admin") throw new PlaygroundError("FORBIDDEN", "Only the owner can stop this turn");
  // The turn in flight on any server, from its claim (a turn whose server died has none once the lease passed).
  const turn = (await runningTurn(deps.db, sessionId))?.turn ?? null;
  if (turn === null) return false;
  const who = { id: actor.id, ...(actor.email ? { email: actor.email } : {}) };
  await requestStop(deps.db, { audit: deps.audit, actor: who, tenant: s.tenant }, "turn", stopTarget(sessionId, turn), { sessionId, turn });
  return true;
}

/** Resolves when the session has no running turn (after stopping it), or after `timeoutMs`. */
export async function settled(sessionId: string, timeoutMs = 15_000): Promise<boolean> {
  const state = running().get(sessionId);
  if (!state) return true;
  let timer: NodeJS.Timeout | undefined;
  const ok = await Promise.race([state.finished.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), timeoutMs)))]);
  clearTimeout(timer);
  return ok;
}
