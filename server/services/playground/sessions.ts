// Playground sessions: kept per user in the database, each with a private scratch folder
// (<scratchRoot>/<sessionId>) that goes away with the session. Owners do everything with their sessions;
// administrators may open (read) anyone's, e.g. from a violation in the audit dashboard.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { and, asc, desc, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { playgroundMessages, playgroundSessions, turnClaims } from "../../../db/schema";
import type { DataHome } from "../../config";
import { DISCLOSURE_MODES, type DisclosureMode } from "../../runtime/agent";
import { checkProviderChoice } from "./providers";
import { PlaygroundError, type RequestRecord, type TurnRecord } from "./types";
import { processEnv } from "../../../env";
import { usersInReach } from "../tenants/admin-reach";

export interface Actor {
  id: string;
  role: "viewer" | "author" | "admin";
}

export interface SessionSettings {
  title?: string;
  provider?: string;
  model?: string;
  mode?: DisclosureMode;
  environment?: string;
  agent?: string;
  tenant?: string;
  /** A subset of skill names; absent or empty means every skill the resolution gives. */
  skills?: string[];
}

export interface PlaygroundSession {
  id: string;
  userId: string;
  title: string;
  provider: string;
  model: string;
  mode: DisclosureMode;
  environment: string | null;
  agent: string | null;
  tenant: string | null;
  skills: string[] | null;
  createdAt: number;
  updatedAt: number;
}

export interface PlaygroundMessage {
  id: number;
  turn: number;
  role: "user" | "assistant";
  content: string;
  request?: RequestRecord;
  record?: TurnRecord;
  createdAt: number;
}

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MAX_TITLE = 120;

function toSession(row: typeof playgroundSessions.$inferSelect): PlaygroundSession {
  let skills: string[] | null = null;
  try {
    const parsed = row.skills ? (JSON.parse(row.skills) as unknown) : null;
    if (Array.isArray(parsed)) skills = parsed.filter((s): s is string => typeof s === "string");
  } catch {
    skills = null;
  }
  return {
    ...row,
    mode: (DISCLOSURE_MODES as readonly string[]).includes(row.mode) ? (row.mode as DisclosureMode) : "tool",
    skills,
  };
}

const blank = (s: string | undefined) => (s && s.trim() ? s.trim() : null);

function cleanTitle(title: string): string {
  const t = title.replace(/\s+/g, " ").trim();
  if (!t) throw new PlaygroundError("BAD_REQUEST", "A session title cannot be empty");
  return t.slice(0, MAX_TITLE);
}

/** <scratchRoot>/<sessionId>, only for a well-formed id (so no id can name a path outside the root). */
export function scratchDirOf(dataHome: DataHome, sessionId: string): string {
  if (!SESSION_ID.test(sessionId)) throw new PlaygroundError("BAD_REQUEST", `"${sessionId}" is not a session id`);
  return path.join(dataHome.scratchRoot, sessionId);
}

export async function createSession(db: Db, dataHome: DataHome, actor: Actor, settings: SessionSettings, env: Record<string, string | undefined> = processEnv()): Promise<PlaygroundSession> {
  const provider = settings.provider ?? "offline";
  const model = checkProviderChoice(provider, settings.model, env);
  const mode = settings.mode ?? "tool";
  if (!(DISCLOSURE_MODES as readonly string[]).includes(mode)) throw new PlaygroundError("BAD_REQUEST", `Unknown disclosure mode "${mode}"`);
  const skills = settings.skills?.map((s) => s.trim()).filter(Boolean) ?? [];
  const id = randomUUID();
  const now = Date.now();
  const row = {
    id,
    userId: actor.id,
    title: settings.title?.trim() ? cleanTitle(settings.title) : `Session ${new Date(now).toISOString().slice(0, 16).replace("T", " ")}`,
    provider,
    model,
    mode,
    environment: blank(settings.environment),
    agent: blank(settings.agent),
    tenant: blank(settings.tenant),
    skills: skills.length ? JSON.stringify([...new Set(skills)]) : null,
    createdAt: now,
    updatedAt: now,
  };
  // The scratch folder exists before the first script: private (0700), taken over by the sandbox user on first run.
  fs.mkdirSync(dataHome.scratchRoot, { recursive: true, mode: 0o755 });
  fs.mkdirSync(scratchDirOf(dataHome, id), { mode: 0o700 });
  await db.insert(playgroundSessions).values(row);
  return toSession(row);
}

/**
 * The user's own sessions, most recently used first, each saying whether a turn runs in it on any server (a live
 * claim, turn-claims.ts: the list's badge), in one query.
 */
export async function listSessions(db: Db, userId: string): Promise<(PlaygroundSession & { running: boolean })[]> {
  const now = Date.now();
  const rows = await db
    .select({ session: playgroundSessions, leaseUntil: turnClaims.leaseUntil })
    .from(playgroundSessions)
    .leftJoin(turnClaims, eq(turnClaims.sessionId, playgroundSessions.id))
    .where(eq(playgroundSessions.userId, userId))
    .orderBy(desc(playgroundSessions.updatedAt));
  return rows.map((r) => ({ ...toSession(r.session), running: r.leaseUntil !== null && r.leaseUntil >= now }));
}

/**
 * A session the actor may read: their own, or for an administrator one of a user they manage (a tenant admin's
 * users, issue #40; everyone's for the global admin). Not found otherwise (no existence leak).
 */
export async function readableSession(db: Db, actor: Actor, sessionId: string): Promise<PlaygroundSession> {
  const row = (await db.select().from(playgroundSessions).where(eq(playgroundSessions.id, sessionId)).limit(1))[0];
  const mayRead = row && (row.userId === actor.id || (actor.role === "admin" && (await usersInReach(db, actor))(row.userId)));
  if (!row || !mayRead) throw new PlaygroundError("NOT_FOUND", `No playground session ${sessionId}`);
  return toSession(row);
}

/** A session the actor may change (send, rename, delete): only their own. */
export async function ownSession(db: Db, actor: Actor, sessionId: string): Promise<PlaygroundSession> {
  const s = await readableSession(db, actor, sessionId);
  if (s.userId !== actor.id) throw new PlaygroundError("FORBIDDEN", "Only the owner of a playground session can change it or chat in it; administrators can read it");
  return s;
}

export async function renameSession(db: Db, actor: Actor, sessionId: string, title: string): Promise<PlaygroundSession> {
  await ownSession(db, actor, sessionId);
  const t = cleanTitle(title);
  await db.update(playgroundSessions).set({ title: t, updatedAt: Date.now() }).where(eq(playgroundSessions.id, sessionId));
  return readableSession(db, actor, sessionId);
}

export async function touchSession(db: Db, sessionId: string): Promise<void> {
  await db.update(playgroundSessions).set({ updatedAt: Date.now() }).where(eq(playgroundSessions.id, sessionId));
}

/** Deletes the session, its messages (cascade) and its scratch folder. The caller stops a running turn first. */
export async function deleteSession(db: Db, dataHome: DataHome, actor: Actor, sessionId: string): Promise<void> {
  await ownSession(db, actor, sessionId);
  await db.delete(playgroundSessions).where(and(eq(playgroundSessions.id, sessionId), eq(playgroundSessions.userId, actor.id)));
  removeScratch(dataHome, sessionId);
}

export function removeScratch(dataHome: DataHome, sessionId: string): void {
  const dir = scratchDirOf(dataHome, sessionId);
  // rmSync does not follow a symlink named `dir`; it removes the link itself.
  fs.rmSync(dir, { recursive: true, force: true });
}

export async function listMessages(db: Db, sessionId: string): Promise<PlaygroundMessage[]> {
  return (await db.select().from(playgroundMessages).where(eq(playgroundMessages.sessionId, sessionId)).orderBy(asc(playgroundMessages.id))).map(messageOf);
}

/** A stored message row as the service reads it: its record parsed (a row whose record is not JSON has none). */
export function messageOf(r: { id: number; turn: number; role: string; content: string; events: string | null; createdAt: number }): PlaygroundMessage {
  const role = r.role === "user" ? "user" : "assistant";
  let parsed: unknown = null;
  try {
    parsed = r.events ? JSON.parse(r.events) : null;
  } catch {
    parsed = null;
  }
  return {
    id: r.id,
    turn: r.turn,
    role,
    content: r.content,
    ...(parsed && role === "user" ? { request: parsed as RequestRecord } : {}),
    ...(parsed && role === "assistant" ? { record: parsed as TurnRecord } : {}),
    createdAt: r.createdAt,
  };
}

/** The record of one turn's answer (its assistant row), or null while it runs or when there is no such turn. */
export async function turnRecord(db: Db, sessionId: string, turn: number): Promise<TurnRecord | null> {
  const row = (await db
    .select({ events: playgroundMessages.events })
    .from(playgroundMessages)
    .where(and(eq(playgroundMessages.sessionId, sessionId), eq(playgroundMessages.turn, turn), eq(playgroundMessages.role, "assistant"))).limit(1))[0];
  try {
    return row?.events ? (JSON.parse(row.events) as TurnRecord) : null;
  } catch {
    return null;
  }
}

/** Stores one message of a turn; resolves with it as a read gives it back (its record through JSON, with its id). */
export async function appendMessage(db: Db, sessionId: string, turn: number, role: "user" | "assistant", content: string, events: RequestRecord | TurnRecord): Promise<PlaygroundMessage> {
  const row = { sessionId, turn, role, content, events: JSON.stringify(events), createdAt: Date.now() };
  const [made] = await db.insert(playgroundMessages).values(row).returning({ id: playgroundMessages.id });
  return messageOf({ ...row, id: made!.id });
}
