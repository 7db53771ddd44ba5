// The model's pick among the ranking's first k (issue 36, optional: OMNIFORGE_ROUTING_PICK_TOP_K). With a model
// provider, routing can ask the model which of the best-ranked skills serves the request; the answer must be one of
// the names offered, and anything else (another name, prose, an error) keeps the ranking's first. The pick is put
// first in the ranking, so the listing describes it first; the note says what was asked and what came of it.
import type { SearchResult } from "../search/engine";
import { maskSecrets } from "../tools/audit-args";
import type { RouteOptions, Routed, Router } from "./routing";
import type { DisclosureMode, ModelProvider } from "./types";

/** The longest description offered per skill: enough to tell skills apart, short enough to keep the call cheap. */
const DESCRIPTION_CHARS = 300;

const SYSTEM = [
  "You route a user's request to one skill.",
  "Answer with exactly one name from the list, as written there, and nothing else.",
  "If none of them serves the request, answer with the first name.",
].join(" ");

interface Picked {
  ranked: SearchResult;
  note: string;
}

/** A name the model wrote, without the quotes, backticks, bullets or full stop models like to add. */
function bare(text: string): string {
  return text.trim().split(/\r?\n/)[0]!.trim().replace(/^[-*\s]+/, "").replace(/^["'`]+|["'`.]+$/g, "").trim().toLowerCase();
}

/**
 * Asks `provider` to choose among the ranking's first `k` hits (when there are two or more and the ranking does not
 * abstain) and returns the ranking with its pick first. Never throws: a failed call keeps the ranking as it is.
 */
async function pickAmongTop(provider: ModelProvider, request: string, ranked: SearchResult, k: number, mode: DisclosureMode, signal?: AbortSignal): Promise<Picked | null> {
  const offered = ranked.hits.slice(0, k);
  if (k < 2 || offered.length < 2 || ranked.abstain) return null;
  const first = offered[0]!;
  const list = offered.map((h) => `- ${h.name}: ${h.description.slice(0, DESCRIPTION_CHARS)}`).join("\n");
  const among = `asked the model to choose among ${offered.length}`;
  let answer: string;
  try {
    const r = await provider.complete({
      system: SYSTEM,
      messages: [{ role: "user", content: `Request: ${request}\n\nSkills:\n${list}` }],
      tools: [],
      ...(signal ? { signal } : {}),
      hints: { mode, request, skills: [], active: [] },
    });
    answer = r.text ?? "";
  } catch (e) {
    return { ranked, note: `${among}: no answer (${maskSecrets((e as Error).message).slice(0, 200)}); kept the ranking's first, ${first.name}` };
  }
  const pick = offered.find((h) => h.name.toLowerCase() === bare(answer));
  if (!pick) return { ranked, note: `${among}: it answered ${JSON.stringify(answer.trim().slice(0, 80))}, not one of them; kept the ranking's first, ${first.name}` };
  const hits = [pick, ...ranked.hits.filter((h) => h !== pick)];
  return { ranked: { ...ranked, hits }, note: `${among}: picked ${pick.name}${pick === first ? " (the ranking's first)" : ` (the ranking's #${offered.indexOf(pick) + 1})`}` };
}

/**
 * A run's routing: the request routed (words, and meaning when configured), then, when `pickTopK` is set and the
 * provider is a model (the offline one is the ranking itself), the model's pick put first. The notes say both.
 */
export async function routeAndPick(r: Pick<Router, "route" | "list">, provider: ModelProvider, request: string, opts: RouteOptions, pickTopK: number, signal?: AbortSignal): Promise<Routed> {
  const routed = await r.route(request, opts);
  if (!pickTopK || provider.name === "offline") return routed;
  const picked = await pickAmongTop(provider, request, routed.ranked, pickTopK, opts.mode, signal);
  if (!picked) return routed;
  const notes = [...routed.notes, picked.note];
  return picked.ranked === routed.ranked ? { ...routed, notes } : r.list(picked.ranked, opts, notes);
}
