import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accessTokens } from "./tokens";

// Where skills are deployed: what each `omniforge sync` reported it holds, per token, machine, agent and scope.
// One row per skill there; a report replaces that place's rows, so a removed skill disappears from here too.
export const skillDeployments = sqliteTable(
  "skill_deployments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenId: text("token_id")
      .notNull()
      .references(() => accessTokens.id, { onDelete: "cascade" }),
    /** The token's user (null for a machine token), kept so the view needs no join through revoked tokens. */
    userId: text("user_id"),
    host: text("host").notNull(),
    agent: text("agent").notNull(),
    scope: text("scope").notNull(),
    name: text("name").notNull(),
    digest: text("digest").notNull(),
    firstSeenAt: integer("first_seen_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch() * 1000)`),
    lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch() * 1000)`),
  },
  (t) => [
    uniqueIndex("skill_deployments_place_idx").on(t.tokenId, t.host, t.agent, t.scope, t.name),
    index("skill_deployments_name_idx").on(t.name),
  ],
);

export type SkillDeployment = typeof skillDeployments.$inferSelect;
