// Resolution once per change instead of once per request (issue 15). resolveAll over hundreds of skills is the
// costliest part of the list, the editor's header and the playground's listing, and its inputs rarely change:
// the index (its version grows with every rebuild or refresh, so a file written by the console or seen by the
// watcher is a new key) and the context (policy with its approvals, config.yaml, environment/agent/tenant, all
// read fresh by the caller and part of the key). A policy change or an approval is therefore a different key
// at the next request, whichever process made it: nothing can be served stale.
import { resolveAll, type EffectiveSkills, type ResolveContext, type SkillIndex } from "../../runtime/registry";

// A few contexts per index (the list, what-ifs, playground scopes); older versions are dropped as new ones come.
const MAX_PER_INDEX = 16;

const memo = new WeakMap<SkillIndex, { version: number; byContext: Map<string, EffectiveSkills> }>();

/** resolveAll(index, ctx), computed once per index version and context. Callers must not change the result. */
export function resolveCached(index: SkillIndex, ctx: ResolveContext): EffectiveSkills {
  let slot = memo.get(index);
  if (!slot || slot.version !== index.version) {
    slot = { version: index.version, byContext: new Map() };
    memo.set(index, slot);
  }
  const key = JSON.stringify(ctx);
  const hit = slot.byContext.get(key);
  if (hit) return hit;
  const resolved = resolveAll(index, ctx);
  slot.byContext.set(key, resolved);
  if (slot.byContext.size > MAX_PER_INDEX) slot.byContext.delete(slot.byContext.keys().next().value as string);
  return resolved;
}
