// A skill's `model` field (seed 000): while the skill is active the run's remaining model calls use that model,
// when the host can provide it; otherwise the run keeps its model and says so, to the person (an event) and to
// the model (a note in the activation's tool result), never silently.
import { OFFLINE_MODEL } from "./offline";
import { createProvider } from "./providers";
import type { LoadedSkill } from "./skill-source";
import type { AgentRunOptions, ModelProvider } from "./types";

/** What a model name may look like (a session's model, a skill's `model` field). */
export const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,127}$/;

const set = (v: string | undefined) => !!v && v.trim().length > 0;

/** Whether a provider can be used with these environment variables (offline always can). */
export function providerConfigured(name: "offline" | "openai" | "anthropic", env: Record<string, string | undefined>): boolean {
  if (name === "openai") return set(env.OPENAI_BASE_URL) || set(env.OPENAI_API_KEY);
  if (name === "anthropic") return set(env.ANTHROPIC_API_KEY);
  return true;
}

/**
 * The provider for a skill's `model` field, or why there is none: "offline" is the offline model, a name
 * starting with "claude" is Anthropic's, any other goes to the OpenAI-compatible endpoint (which serves many
 * vendors' models). Only providers configured in `env` are used. The playground and `agent run` both ask this.
 */
export function providerForSkillModel(model: string, env: Record<string, string | undefined>): ModelProvider | string {
  const name = model === OFFLINE_MODEL || model === "offline" ? "offline" : /^claude/i.test(model) ? "anthropic" : "openai";
  if (name !== "offline" && !MODEL_NAME.test(model)) return `"${model}" is not a model name`;
  if (!providerConfigured(name, env)) {
    return `the ${name} provider is not configured here (${name === "openai" ? "OPENAI_BASE_URL or OPENAI_API_KEY" : "ANTHROPIC_API_KEY"} is not set)`;
  }
  return createProvider(name, name === "offline" ? env : { ...env, OMNIFORGE_MODEL: model });
}

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
