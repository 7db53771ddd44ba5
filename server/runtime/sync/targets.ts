// Where each agent reads skills from, per scope. Sources are cited in ./README.md. `omniforge sync` writes into
// exactly one folder per agent and scope (the agent's own, not a shared alias); two agents whose folders coincide
// share one plan. An agent that also reads the shared .agents/skills sees a skill twice when the same sync fills
// that folder too (for Codex's project scope, or --agent agents): sharedAliasOf says so, and sync warns.
import path from "node:path";

import { SYNC_AGENTS, type SyncAgent } from "../../domain/vocabulary";

export type SyncScope = "user" | "project";

export interface TargetPlaces {
  home: string;
  projectRoot: string;
  env: Record<string, string | undefined>;
}

export function isSyncAgent(s: string): s is SyncAgent {
  return (SYNC_AGENTS as readonly string[]).includes(s);
}

/** The skills folder of `agent` for `scope`. */
export function skillsFolder(agent: SyncAgent, scope: SyncScope, p: TargetPlaces): string {
  const user = scope === "user";
  const base = user ? p.home : p.projectRoot;
  switch (agent) {
    case "claude-code":
      return path.join(base, ".claude", "skills");
    case "codex":
      // Codex keeps its user files under $CODEX_HOME (default ~/.codex); in a repository it reads .agents/skills.
      return user ? path.join(p.env.CODEX_HOME ? path.resolve(p.env.CODEX_HOME) : path.join(p.home, ".codex"), "skills") : path.join(base, ".agents", "skills");
    case "gemini":
      return path.join(base, ".gemini", "skills");
    case "opencode":
      return user ? path.join(p.env.XDG_CONFIG_HOME ? path.resolve(p.env.XDG_CONFIG_HOME) : path.join(p.home, ".config"), "opencode", "skills") : path.join(base, ".opencode", "skills");
    case "copilot":
      return user ? path.join(base, ".copilot", "skills") : path.join(base, ".github", "skills");
    case "agents":
      return path.join(base, ".agents", "skills");
  }
}

/** Agents that read the shared `.agents/skills` of a scope besides their own folder (./README.md's sources). */
const READS_SHARED_ALIAS: ReadonlySet<SyncAgent> = new Set<SyncAgent>(["codex", "gemini", "opencode", "copilot"]);

/** The shared `.agents/skills` folder `agent` also reads in `scope`, or null when it reads only its own. */
export function sharedAliasOf(agent: SyncAgent, scope: SyncScope, p: TargetPlaces): string | null {
  return READS_SHARED_ALIAS.has(agent) ? skillsFolder("agents", scope, p) : null;
}
