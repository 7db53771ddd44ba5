// A playground session's `active_skills` (spec 004): kept in the turn records rather than in memory, so they
// survive a restart and a turn run elsewhere (a worker), and a replay starts from what was loaded before the
// turn it replays (read with the rest of a turn's start: turn-context.ts). Only orchestrated turns hold them; a
// turn in another mode leaves them as they were.
import type { AgentRunOptions, DisclosureMode } from "../../runtime/agent";
import { setting, type EnvSource } from "../../../env";

/** What runAgent needs of the protocol for a playground turn: the limits (settings) and, orchestrated, the session's skills. */
export function protocolOptions(env: EnvSource, mode: DisclosureMode, activeSkills: string[]): Pick<AgentRunOptions, "maxLoadedSkills" | "maxActivationDepth" | "activeSkills"> {
  return {
    maxLoadedSkills: setting("OMNIFORGE_MAX_LOADED_SKILLS", env),
    maxActivationDepth: setting("OMNIFORGE_MAX_ACTIVATION_DEPTH", env),
    ...(mode === "orchestrated" ? { activeSkills } : {}),
  };
}
