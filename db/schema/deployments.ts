import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { ownedBy, required, rowId, timeNow } from "./columns";
import { accessTokens } from "./tokens";

// Where skills are deployed: what each `omniforge sync` reported it holds, per token, machine, agent and scope.
// One row per skill there; a report replaces that place's rows, so a removed skill disappears from here too.
export const skillDeployments = sqliteTable(
  "skill_deployments",
  {
    id: rowId(),
    tokenId: ownedBy("token_id", () => accessTokens.id),
    /** The token's user (null for a machine token), kept so the view needs no join through revoked tokens. */
    userId: text("user_id"),
    host: required.text("host"),
    agent: required.text("agent"),
    scope: required.text("scope"),
    name: required.text("name"),
    digest: required.text("digest"),
    firstSeenAt: timeNow("first_seen_at"),
    lastSeenAt: timeNow("last_seen_at"),
  },
  (t) => [
    uniqueIndex("skill_deployments_place_idx").on(t.tokenId, t.host, t.agent, t.scope, t.name),
    index("skill_deployments_name_idx").on(t.name),
  ],
);

export type SkillDeployment = typeof skillDeployments.$inferSelect;
