// What `playground.get` sends of a session's history. The page reads the whole history again after every turn, so
// each turn carries only what the chat shows at once: a listing's text and name lists (about 30 KB a turn over 600
// skills) come from `turnListing` when the person opens them, a tool call's long output (a SKILL.md) from
// `toolOutput` when the person opens the call, and what the turn's row already holds is not sent twice (the answer
// as its message event and its streamed text, the costs again in run_finished).
import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { playgroundMessages } from "../../../db/schema";
import type { AgentEvent, DisclosureMode, ListingInfo } from "../../runtime/agent";
import { processWide } from "../../process-wide";
import { messageOf, readableSession, turnRecord, type Actor, type PlaygroundMessage } from "./sessions";
import { PlaygroundError, type HistoryEvent, type ListingSummary, type StreamEvent, type TurnRecord } from "./types";

type RunStarted = Extract<AgentEvent, { type: "run_started" }>;

/** Tool outputs up to this many characters stay in the history (a refusal, a short answer): not worth a request. */
const INLINE_OUTPUT = 500;

type HistoryMessage = Omit<PlaygroundMessage, "record"> & { record?: Omit<TurnRecord, "events"> & { events: HistoryEvent[] } };

function listingSummary(l: ListingInfo): ListingSummary {
  const { text: _text, described, nameOnly, shortenedNames: _shortened, omittedNames: _omitted, ...counts } = l;
  // Turns recorded before request-ranked listings have no name lists: every listed skill had a description.
  return { ...counts, detailsOmitted: true, describedCount: described?.length ?? l.listed, nameOnlyCount: nameOnly?.length ?? 0 };
}

/** A turn's events as the history sends them; `answer` is the turn's stored answer (the message row's content). */
export function historyEvents(events: StreamEvent[], answer: string): HistoryEvent[] {
  const out: HistoryEvent[] = [];
  events.forEach((e, k) => {
    if (e.type === "run_started") out.push({ ...e, listing: listingSummary(e.listing) });
    else if (e.type === "run_finished") {
      const { costs: _costs, ...rest } = e;
      out.push(rest);
    } else if (e.type === "tool_result" && e.output.length > INLINE_OUTPUT && !e.refused) {
      const { output, ...rest } = e;
      out.push({ ...rest, outputChars: output.length });
    } else if (e.type === "message" && e.depth === 0 && e.text === answer) return;
    else if (e.type === "text_delta" && e.depth === 0 && answersNext(events, k)) return;
    else out.push(e);
  });
  return out;
}

/** The text streamed before a call that asked for no tool is the answer (kept as the row's content), not a step. */
function answersNext(events: StreamEvent[], from: number): boolean {
  for (let i = from + 1; i < events.length; i++) {
    const e = events[i]!;
    if (e.type === "model_call" && e.depth === 0) return e.toolCalls === 0;
  }
  return false;
}

const historyMessage = ({ record, ...m }: PlaygroundMessage): HistoryMessage => (record ? { ...m, record: { ...record, events: historyEvents(record.events, m.content) } } : m);

/**
 * Rows kept as the history sends them, per database, with their session (a row id met under another session is read
 * again); the oldest go first past this many (a turn's two rows are 5-25 KB kept).
 */
const MAX_KEPT_ROWS = 4_000;
const READ_SLICE = 500;
const keptRows = processWide("playgroundHistoryRows", () => new WeakMap<Db, Map<number, { sessionId: string; message: HistoryMessage }>>());

/** Keeps a message this server has just stored (and committed), so the page's next read needs no read of it. */
export function keepHistoryRow(db: Db, sessionId: string, message: PlaygroundMessage): void {
  keepRow(keptOf(db), message.id, sessionId, historyMessage(message));
}

function keptOf(db: Db): Map<number, { sessionId: string; message: HistoryMessage }> {
  let kept = keptRows().get(db);
  if (!kept) keptRows().set(db, (kept = new Map()));
  return kept;
}

function keepRow(kept: Map<number, { sessionId: string; message: HistoryMessage }>, id: number, sessionId: string, message: HistoryMessage): void {
  kept.set(id, { sessionId, message });
  if (kept.size > MAX_KEPT_ROWS) kept.delete(kept.keys().next().value as number);
}

/**
 * A session's history as playground.get sends it, from one read of its rows without their records; each row's record
 * is read, parsed and shaped once and kept by row id: a message row never changes once written (it goes only with its
 * session), and the page reads the whole history again after every turn, which parsed every record (40 KB a turn
 * over 600 skills) each time. The kept messages are shared: callers must not change them.
 */
export async function sessionHistory(db: Db, sessionId: string): Promise<HistoryMessage[]> {
  const m = playgroundMessages;
  const rows = await db.select({ id: m.id }).from(m).where(eq(m.sessionId, sessionId)).orderBy(asc(m.id));
  const kept = keptOf(db);
  const mine = new Map<number, HistoryMessage>();
  const unmet: number[] = [];
  for (const { id } of rows) {
    const k = kept.get(id);
    if (k?.sessionId === sessionId) mine.set(id, k.message);
    else unmet.push(id);
  }
  for (let i = 0; i < unmet.length; i += READ_SLICE) {
    for (const r of await db.select().from(m).where(inArray(m.id, unmet.slice(i, i + READ_SLICE)))) {
      const message = historyMessage(messageOf(r));
      mine.set(r.id, message);
      keepRow(kept, r.id, sessionId, message);
    }
  }
  // A row removed between the two reads (its session deleted) is left out.
  return rows.flatMap(({ id }) => mine.get(id) ?? []);
}

/**
 * One turn's listing in full (text and names), as its run started: the main agent's, or the sub-agent run's
 * (`runId`). The same reader rule as the history: the owner, or an administrator.
 */
export async function turnListing(db: Db, actor: Actor, sessionId: string, turn: number, runId?: string): Promise<ListingInfo & { mode: DisclosureMode }> {
  await readableSession(db, actor, sessionId);
  const started = (await turnRecord(db, sessionId, turn))?.events.find((e): e is RunStarted => e.type === "run_started" && (runId ? e.runId === runId : e.depth === 0));
  if (!started) throw new PlaygroundError("NOT_FOUND", `Turn ${turn} of this session has no listing`);
  return { ...started.listing, mode: started.mode };
}

/** One tool call's output in a turn (`depth`: 0 for the main agent, 1+ in a sub-agent), with the same reader rule. */
export async function turnToolOutput(db: Db, actor: Actor, sessionId: string, turn: number, callId: string, depth = 0): Promise<{ output: string }> {
  await readableSession(db, actor, sessionId);
  const result = (await turnRecord(db, sessionId, turn))?.events.find((e) => e.type === "tool_result" && e.callId === callId && e.depth === depth);
  if (result?.type !== "tool_result") throw new PlaygroundError("NOT_FOUND", `Turn ${turn} of this session has no tool call ${callId}`);
  return { output: result.output };
}
