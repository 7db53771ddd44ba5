// A skill's `model` field (seed 000): while the skill is active the run's remaining model calls use that model,
// when the host can provide it; otherwise the run keeps its model and says so, to the person (an event) and to
// the model (a note in the activation's tool result), never silently.
import type { LoadedSkill } from "./skill-source";
import type { AgentRunOptions, ModelProvider } from "./types";

export interface SkillModelSwitch {
  /** The provider for the rest of the run, when it changes. */
  provider?: ModelProvider;
  event: { type: "skill_model"; skill: string; model: string; used: boolean; provider: string; detail: string };
  note: string;
}

export function skillModelSwitch(current: ModelProvider, skill: LoadedSkill | undefined, modelFor: AgentRunOptions["modelFor"]): SkillModelSwitch | null {
  const model = skill?.model;
  if (!skill || !model || model === current.model) return null;
  let answer: ModelProvider | string;
  try {
    answer = modelFor ? modelFor(model) : "this host does not switch models for skills";
  } catch (e) {
    answer = e instanceof Error ? e.message : String(e);
  }
  if (typeof answer === "string") {
    const detail = `Skill '${skill.name}' asks for the model ${model}, which is not available: ${answer}. This turn stays on ${current.model}.`;
    return { event: { type: "skill_model", skill: skill.name, model, used: false, provider: current.name, detail }, note: `[${detail}]` };
  }
  const detail = `Skill '${skill.name}' asks for the model ${model}: the rest of this turn runs with ${answer.name} ${answer.model} (was ${current.model}).`;
  return { provider: answer, event: { type: "skill_model", skill: skill.name, model, used: true, provider: answer.name, detail }, note: `[${detail}]` };
}
