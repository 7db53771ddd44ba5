// What a turn starts from: the conversation before it (the requests, and the answers that answered), the skills the
// session's last orchestrated turn left loaded (spec 004), the requests a replay may name, and the next turn's
// number, all from one read of the session's rows without their records. A turn's record (its steps, the listing's
// text and names: about 40 KB a turn over 600 skills) is what a turn needs least of and what cost most: every turn
// read and parsed every earlier record twice, so a turn's start grew with its session. What a turn needs of a record
// (did it answer, what it left loaded) is read once and kept by row id: a message row is never changed once written
// (it goes only with its session), so a kept fact is never stale, on this server or any other; a row this server has
// not met (written elsewhere, or before a restart) is read when first seen.
import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { playgroundMessages } from "../../../db/schema";
import type { ChatMessage } from "../../runtime/agent";
import { processWide } from "../../process-wide";
import type { TurnRecord } from "./types";

/** What a turn needs of an earlier turn's record. */
export interface AnswerFacts {
  answered: boolean;
  /** The skills left loaded, on an orchestrated turn's record only. */
  activeSkills?: string[];
}

/** Rows kept per database: a few bytes each; the oldest go first past this many. */
const MAX_KEPT = 50_000;
/** Records read in one statement when many are met at once (a long session on a server just started). */
const READ_SLICE = 500;

/** A row's facts with the session it belongs to: a row id met under another session is read again. */
type Kept = AnswerFacts & { sessionId: string };

const kept = processWide("playgroundAnswerFacts", () => new WeakMap<Db, Map<number, Kept>>());

function keptOf(db: Db): Map<number, Kept> {
  let m = kept().get(db);
  if (!m) kept().set(db, (m = new Map()));
  return m;
}

function keep(m: Map<number, Kept>, id: number, facts: Kept): void {
  m.set(id, facts);
  if (m.size > MAX_KEPT) m.delete(m.keys().next().value as number);
}

export function answerFacts(record: Pick<TurnRecord, "reason" | "activeSkills"> | null): AnswerFacts {
  const loaded = record?.activeSkills;
  return { answered: record?.reason === "answered", ...(Array.isArray(loaded) ? { activeSkills: loaded.filter((n) => typeof n === "string") } : {}) };
}

/** Called once a turn's answer row is committed: the next turn here needs no read of its record. */
export function keepAnswerFacts(db: Db, rowId: number, sessionId: string, record: Pick<TurnRecord, "reason" | "activeSkills"> | null): void {
  keep(keptOf(db), rowId, { ...answerFacts(record), sessionId });
}

function parsed(events: string | null): TurnRecord | null {
  try {
    return events ? (JSON.parse(events) as TurnRecord) : null;
  } catch {
    return null;
  }
}

export interface TurnContext {
  /** The turn a new request takes. */
  nextTurn: number;
  /** The request of an earlier turn (a replay's), or undefined. */
  requestOf(turn: number): string | undefined;
  /** The conversation before `beforeTurn` (all of it when undefined), as the model saw it. */
  history(beforeTurn?: number): ChatMessage[];
  /** The skills loaded when the last orchestrated turn before `beforeTurn` ended (none when no such turn). */
  activeSkills(beforeTurn?: number): string[];
}

export async function turnContext(db: Db, sessionId: string): Promise<TurnContext> {
  const m = playgroundMessages;
  const rows = await db.select({ id: m.id, turn: m.turn, role: m.role, content: m.content }).from(m).where(eq(m.sessionId, sessionId)).orderBy(asc(m.id));
  const facts = keptOf(db);
  // This session's facts apart from the kept ones, which a long session met at once could push out meanwhile.
  const mine = new Map<number, AnswerFacts>();
  const unmet: number[] = [];
  for (const r of rows) {
    if (r.role === "user") continue;
    const known = facts.get(r.id);
    if (known?.sessionId === sessionId) mine.set(r.id, known);
    else unmet.push(r.id);
  }
  for (let i = 0; i < unmet.length; i += READ_SLICE) {
    for (const r of await db.select({ id: m.id, events: m.events }).from(m).where(inArray(m.id, unmet.slice(i, i + READ_SLICE)))) {
      const f = answerFacts(parsed(r.events));
      mine.set(r.id, f);
      keep(facts, r.id, { ...f, sessionId });
    }
  }
  const factsOf = (id: number) => mine.get(id) ?? { answered: false };
  const before = (beforeTurn?: number) => rows.filter((r) => beforeTurn === undefined || r.turn < beforeTurn);
  return {
    nextTurn: rows.reduce((max, r) => Math.max(max, r.turn), 0) + 1,
    requestOf: (turn) => rows.find((r) => r.turn === turn && r.role === "user")?.content,
    history(beforeTurn) {
      const out: ChatMessage[] = [];
      for (const r of before(beforeTurn)) {
        if (r.role === "user") out.push({ role: "user", content: r.content });
        else if (r.content && factsOf(r.id).answered) out.push({ role: "assistant", content: r.content });
      }
      return out;
    },
    activeSkills(beforeTurn) {
      let last: string[] = [];
      for (const r of before(beforeTurn)) {
        const loaded = r.role === "user" ? undefined : factsOf(r.id).activeSkills;
        if (loaded) last = loaded;
      }
      return last;
    },
  };
}
