// What every eval hands to the agent it runs (trigger tests and task grading alike): the catalog, the provider,
// the disclosure mode and where scripts run. Each caller adds the request, its audit and its session.
import type { AgentSkillSource, DisclosureMode, ModelProvider } from "../agent/types";
import type { SkillIndex } from "../registry/skill-index";
import type { ScriptRunner } from "../sandbox/types";
import type { RoutingExtras } from "../agent/routing-settings";

export interface EvalAgentOptions {
  skills: AgentSkillSource;
  searchIndex?: SkillIndex;
  provider: ModelProvider;
  mode: DisclosureMode;
  scratchDir: string;
  runner?: ScriptRunner;
  listingBudgetChars?: number;
  /** Meaning search and the model's pick, as the host's settings turn them on (routing-settings.ts). */
  routing?: RoutingExtras;
}

export function agentOptions(o: EvalAgentOptions) {
  return {
    mode: o.mode,
    provider: o.provider,
    skills: o.skills,
    ...(o.searchIndex ? { searchIndex: o.searchIndex } : {}),
    ...(o.runner ? { runner: o.runner } : {}),
    ...(o.listingBudgetChars ? { listingBudgetChars: o.listingBudgetChars } : {}),
    ...(o.routing ? { routing: o.routing } : {}),
    scratchDir: o.scratchDir,
  };
}
