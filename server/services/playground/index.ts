// The playground service: sessions (kept per user, with a private scratch folder), turns (one at a time per
// session, streamed, stoppable, persisted with their events) and what the start form and side panel need.
import fs from "node:fs";
import { estimateTokens } from "../../runtime/skill/tokens";
import { listingBudgetFor, listingInfo, recentRequests, router, DISCLOSURE_MODES, type ChatMessage, type DisclosureMode } from "../../runtime/agent";
import { resolveCached } from "../catalog/resolution";
import { indexFor } from "../catalog/catalog";
import { effectivePolicy } from "../policy/store";
import { scopeValues } from "../governance/context";
import { availableProviders, providerFor } from "./providers";
import { sharedRunner } from "./sandbox";
import { sessionSkillSet } from "./scope";
import { deleteSession, listMessages, ownSession, readableSession, type Actor } from "./sessions";
import { settled, stopTurn, type TurnDeps } from "./turns";
import type { Db } from "../../../db/client";
import type { DataHome } from "../../config";

export * from "./types";
export { availableProviders, checkProviderChoice, providerFor, type ProviderChoice } from "./providers";
export { closePlaygroundSandboxes, sharedRunner, wrapRunner, scriptLimit, type SharedRunner } from "./sandbox";
export {
  createSession,
  listSessions,
  readableSession,
  ownSession,
  renameSession,
  listMessages,
  scratchDirOf,
  type Actor,
  type SessionSettings,
  type PlaygroundSession,
  type PlaygroundMessage,
} from "./sessions";
import { processEnv } from "../../../env";
export { sessionSkills } from "./scope";
export { startTurn, followTurn, stopTurn, runningTurn, settled, failureText, type TurnDeps, type TurnInput } from "./turns";

/** Stops a running turn (waiting for it to end), then deletes the session, its messages and its scratch folder. */
export async function removeSession(db: Db, dh: DataHome, actor: Actor, sessionId: string): Promise<void> {
  ownSession(db, actor, sessionId);
  // The turn stops first, so no script still writes into the scratch folder that is about to go.
  if (stopTurn(db, actor, sessionId)) await settled(sessionId);
  deleteSession(db, dh, actor, sessionId);
}

/** What the "new session" form offers this user. */
export async function playgroundOptions(db: Db, dh: DataHome, actor: Actor, env: Record<string, string | undefined> = processEnv()) {
  const index = await indexFor(actor.id, dh);
  // The same policy the turns resolve with, so the form never offers a blocked skill.
  const skills = resolveCached(index, { policy: effectivePolicy(db, { userId: actor.id }) }).skills.filter((e) => e.loadable).map((e) => ({ name: e.name, layer: e.layer, description: e.description }));
  let sandbox: { mode: string; detail: string };
  try {
    const st = await sharedRunner(dh.scratchRoot, env).sandbox.status();
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

/**
 * The listing the session's agent would see now (before a turn, or in another mode), for a typed request when
 * given: the same routing the loop uses (the one ranking over the session's skills, earlier requests of the
 * session weighing less), with the best matches and why they rank.
 */
export async function listingPreview(deps: Pick<TurnDeps, "db" | "dataHome" | "env">, actor: Actor, sessionId: string, mode?: DisclosureMode, request = "") {
  const s = readableSession(deps.db, actor, sessionId);
  const { entries, index } = await sessionSkillSet(deps.db, deps.dataHome, s);
  let contextTokens = 200_000;
  try {
    contextTokens = providerFor(s.provider, s.model, deps.env ?? processEnv()).contextTokens;
  } catch {
    // not configured any more: the turn will say so; the preview uses the default window
  }
  const history: ChatMessage[] = listMessages(deps.db, sessionId).filter((m) => m.role === "user").map((m) => ({ role: "user", content: m.content }));
  const routed = router(entries, entries, index).route(request.trim(), { mode: mode ?? s.mode, budgetChars: listingBudgetFor(contextTokens), recent: recentRequests(history) });
  return {
    ...listingInfo(routed.listing),
    everything: everythingCost(entries.map((e) => e.file)),
    request: request.trim(),
    abstain: request.trim() ? routed.ranked.abstain : false,
    abstainReason: routed.ranked.reason ?? null,
    matches: request.trim() ? routed.ranked.hits.slice(0, 5).map((h) => ({ name: h.name, score: h.score, confidence: h.confidence, why: h.why })) : [],
  };
}

const BASELINE_MAX_SKILLS = 500;
const BASELINE_MAX_FILE = 256 * 1024;

/**
 * The baseline progressive disclosure saves: every available SKILL.md in full in every model call. Read from
 * disk (plain files only, size-capped), for at most BASELINE_MAX_SKILLS skills; `counted` says how many.
 */
export function everythingCost(files: string[]): { skills: number; counted: number; chars: number; tokens: number } {
  let chars = 0;
  let tokens = 0;
  let counted = 0;
  for (const file of files.slice(0, BASELINE_MAX_SKILLS)) {
    try {
      const st = fs.lstatSync(file);
      if (!st.isFile() || st.size > BASELINE_MAX_FILE) continue;
      const text = fs.readFileSync(file, "utf8");
      chars += text.length;
      tokens += estimateTokens(text);
      counted++;
    } catch {
      // unreadable now: left out of the baseline
    }
  }
  return { skills: files.length, counted, chars, tokens };
}
