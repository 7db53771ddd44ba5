import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const playgroundSessions = sqliteTable(
  "playground_sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    title: text("title").notNull(),
    provider: text("provider").notNull(),
    model: text("model").notNull(),
    mode: text("mode").notNull(), // tool | prompt | orchestrated
    environment: text("environment"),
    agent: text("agent"),
    tenant: text("tenant"),
    skills: text("skills"), // JSON string[]: a subset, or null for all
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("playground_sessions_user_idx").on(t.userId, t.updatedAt)],
);

export const playgroundMessages = sqliteTable(
  "playground_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    sessionId: text("session_id")
      .notNull()
      .references(() => playgroundSessions.id, { onDelete: "cascade" }),
    turn: integer("turn").notNull(),
    role: text("role").notNull(), // user | assistant | event
    content: text("content").notNull(),
    events: text("events"), // JSON: the turn's steps (activations, tool calls, refusals, script runs, costs)
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("playground_messages_session_idx").on(t.sessionId, t.id)],
);
