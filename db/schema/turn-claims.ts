import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { ownedBy, required } from "./columns";
import { playgroundSessions } from "./playground";

// The one turn a playground session runs, claimed in the database (issue #38): a Send on any console server inserts
// the session's row and a second one, on this server or another, finds it taken. The server running the turn renews
// `lease_until` while it runs and deletes the row when the turn ends; a server that died stops renewing, so its
// claim expires and the session is free again. It is also what every server reads as "a turn is running".
export const turnClaims = sqliteTable("turn_claims", {
  sessionId: ownedBy("session_id", () => playgroundSessions.id).primaryKey(),
  /** A token of this claim alone: the release and the renewals touch only the row they made. */
  claim: required.text("claim"),
  /** The turn's number, once its request is stored (null while the turn is being set up). */
  turn: integer("turn"),
  mode: required.text("mode"),
  /** The server running the turn (host:pid:tag, server/services/server-id.ts), as /api/health names it. */
  server: required.text("server"),
  startedAt: required.integer("started_at"),
  leaseUntil: required.integer("lease_until"),
});
