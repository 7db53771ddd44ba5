// The console's "which skill serves this request" box: the one ranking the agent uses (server/runtime/search),
// over the skills this user's agents can use now (their layers, resolved with the policy in force, so a
// blocked, disabled or unapproved skill is never found), with the explanation of each result.
import { router } from "../../runtime/agent/routing";
import { routingFromSettings } from "../../runtime/agent/routing-settings";
import { searchReady } from "../../runtime/search/follow";
import { processEnv } from "../../../env";
import { resolutionFor } from "../governance/context";
import { resolveCached } from "../catalog/resolution";
import type { SkillsContext } from "./context";
import { refFromEntry } from "./location";
import { sourceProvenance } from "../../runtime/sources/roots";

/** `env`: the settings that turn meaning search on (the process's own unless a test gives others). */
export async function searchSkills(ctx: SkillsContext, request: string, limit = 10, env: Record<string, string | undefined> = processEnv()) {
  // The viewer's resolution: their policy and config, their tenants' skills only, their one tenant as the context's.
  const { index, ctx: context } = await resolutionFor(ctx.db, ctx.dataHome, ctx.actor);
  const entries = resolveCached(index, context).skills.filter((e) => e.loadable);
  const byId = new Map(entries.map((e) => [e.id, e]));
  const sources = sourceProvenance(ctx.dataHome.home);
  await searchReady(index); // built in slices the first time, not in one hold of the console's thread
  // The router the agent routes with (meaning fused with words when an embeddings endpoint is configured).
  const { meaning } = await routingFromSettings(env, ctx.dataHome.home);
  const { ranked: r, notes } = await router({ index, context }, entries, undefined, meaning).find(request, limit);
  return {
    notes,
    abstain: r.abstain,
    reason: r.reason ?? null,
    searched: r.searched,
    hits: r.hits.map((h) => {
      const e = byId.get(h.id)!;
      const ref = refFromEntry(e, ctx.actor.id, sources);
      return {
        key: [ref.layer, ref.plugin ?? "", ref.base ?? "", ...(ref.source ? [`git:${ref.source}`] : []), ref.skill].join("/"),
        ref,
        name: e.name,
        layer: e.layer,
        plugin: e.plugin ?? null,
        description: e.description,
        score: h.score,
        confidence: h.confidence,
        why: h.why,
      };
    }),
  };
}
