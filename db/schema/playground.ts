import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { ownedBy, required, rowId } from "./columns";

export const playgroundSessions = sqliteTable(
  "playground_sessions",
  {
    id: text("id").primaryKey(),
    userId: required.text("user_id"),
    title: required.text("title"),
    provider: required.text("provider"),
    model: required.text("model"),
    mode: required.text("mode"), // tool | prompt | orchestrated
    environment: text("environment"),
    agent: text("agent"),
    tenant: text("tenant"),
    skills: text("skills"), // JSON string[]: a subset, or null for all
    createdAt: required.integer("created_at"),
    updatedAt: required.integer("updated_at"),
  },
  (t) => [index("playground_sessions_user_idx").on(t.userId, t.updatedAt)],
);

export const playgroundMessages = sqliteTable(
  "playground_messages",
  {
    id: rowId(),
    sessionId: ownedBy("session_id", () => playgroundSessions.id),
    turn: required.integer("turn"),
    role: required.text("role"), // user | assistant | event
    content: required.text("content"),
    events: text("events"), // JSON: the turn's steps (activations, tool calls, refusals, script runs, costs)
    createdAt: required.integer("created_at"),
  },
  (t) => [index("playground_messages_session_idx").on(t.sessionId, t.id)],
);
