// The playground service: sessions (kept per user, with a private scratch folder), turns (one at a time per
// session, streamed, stoppable, persisted with their events) and what the start form and side panel need.
import { DISCLOSURE_MODES } from "../../runtime/agent";
import { resolveCached } from "../catalog/resolution";
import { effectivePolicy } from "../policy/store";
import { scopeValues, viewerIndex } from "../governance/context";
import { configContextFor } from "../skills-config";
import { availableProviders } from "./providers";
import { sharedRunner } from "./sandbox";
import { deleteSession, ownSession, type Actor } from "./sessions";
import { settled, stopTurn } from "./turns";
import type { TurnDeps } from "./turn-deps";
import { warmTurnWorker } from "./turn-pool";
import type { Db } from "../../../db/client";
import type { DataHome } from "../../config";

export * from "./types";
export {
  createSession,
  listSessions,
  readableSession,
  ownSession,
  renameSession,
  listMessages,
  scratchDirOf,
  type Actor,
} from "./sessions";
import { processEnv } from "../../../env";
export { listingPreview } from "./listing";
export { sessionHistory, turnListing, turnToolOutput } from "./history";
export { listingFor, warmTurnWorker } from "./turn-pool";
export { startTurn, followTurn, stopTurn, settled } from "./turns";
export { runningTurn } from "./turn-claims";
export type { TurnDeps } from "./turn-deps";

/** Stops a running turn (waiting for it to end), then deletes the session, its messages and its scratch folder. */
export async function removeSession(deps: Pick<TurnDeps, "db" | "dataHome" | "audit">, actor: Actor, sessionId: string): Promise<void> {
  await ownSession(deps.db, actor, sessionId);
  // The turn stops first, so no script still writes into the scratch folder that is about to go (one running on
  // another server is asked to stop; its answer then finds no session to be kept in).
  if ((await stopTurn(deps, actor, sessionId))) await settled(sessionId);
  await deleteSession(deps.db, deps.dataHome, actor, sessionId);
}

/** What the "new session" form offers this user. */
export async function playgroundOptions(db: Db, dataHome: DataHome, actor: Actor, env: Record<string, string | undefined> = processEnv()) {
  void warmTurnWorker(env); // the page is open: a turn is likely next
  const index = await viewerIndex(db, dataHome, actor);
  // The same policy the turns resolve with, so the form never offers a blocked skill.
  // The admin's scope defaults too, as a session that names no environment would resolve.
  const skills = resolveCached(index, { policy: await effectivePolicy(db, { userId: actor.id }), ...configContextFor(dataHome.home, dataHome.projectRoot, env) }).skills.filter((e) => e.loadable).map((e) => ({ name: e.name, layer: e.layer, description: e.description }));
  let sandbox: { mode: string; detail: string };
  try {
    const st = await sharedRunner(dataHome.scratchRoot, env).sandbox.status();
    sandbox = { mode: st.mode, detail: st.detail };
  } catch (e) {
    sandbox = { mode: "unavailable", detail: (e as Error).message };
  }
  return {
    providers: availableProviders(env),
    modes: [...DISCLOSURE_MODES],
    scope: scopeValues(index.entries()),
    skills,
    sandbox,
    canStart: actor.role !== "viewer",
  };
}

