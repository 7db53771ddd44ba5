// The playground's listing preview (the side panel): what the session's agent would see now and what showing
// every SKILL.md in full would cost. Reads and ranks the whole catalog, so the console runs it in the turn worker
// (listingFor in turn-pool.ts), off the request path.
import fs from "node:fs";
import { estimateTokens } from "../../runtime/skill/tokens";
import { listingBudgetFor, listingInfo, recentRequests, router, type ChatMessage, type DisclosureMode } from "../../runtime/agent";
import { providerFor } from "./providers";
import { sessionSkillSet } from "./scope";
import { listMessages, readableSession, type Actor } from "./sessions";
import type { TurnDeps } from "./turn-deps";
import { processEnv } from "../../../env";
import { routingFromSettings } from "../../runtime/agent/routing-settings";

/**
 * The listing the session's agent would see now (before a turn, or in another mode), for a typed request when
 * given: the same routing the loop uses (the one ranking over the session's skills, earlier requests of the
 * session weighing less), with the best matches and why they rank.
 */
export async function listingPreview(deps: Pick<TurnDeps, "db" | "dataHome" | "env">, actor: Actor, sessionId: string, mode?: DisclosureMode, request = "") {
  const s = await readableSession(deps.db, actor, sessionId);
  const { entries, index } = await sessionSkillSet(deps.db, deps.dataHome, s);
  let contextTokens = 200_000;
  try {
    contextTokens = providerFor(s.provider, s.model, deps.env ?? processEnv()).contextTokens;
  } catch {
    // not configured any more: the turn will say so; the preview uses the default window
  }
  const history: ChatMessage[] = (await listMessages(deps.db, sessionId)).filter((m) => m.role === "user").map((m) => ({ role: "user", content: m.content }));
  const { meaning } = await routingFromSettings(deps.env ?? processEnv(), deps.dataHome.home);
  const routed = await router(entries, entries, index, meaning).route(request.trim(), { mode: mode ?? s.mode, budgetChars: listingBudgetFor(contextTokens), recent: recentRequests(history) });
  return {
    ...listingInfo(routed.listing),
    everything: everythingCost(entries.map((e) => e.file)),
    request: request.trim(),
    abstain: request.trim() ? routed.ranked.abstain : false,
    abstainReason: routed.ranked.reason ?? null,
    routing: routed.notes,
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
