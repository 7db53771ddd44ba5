// Which model providers a playground session may choose: offline always (no key), the real ones only when
// their environment variables are set. Read at call time, so a provider appears as soon as it is configured.
import { createProvider, OFFLINE_MODEL, type ModelProvider, type ProviderName } from "../../runtime/agent";
import { MODEL_NAME, providerConfigured } from "../../runtime/agent/skill-model";
import { PlaygroundError } from "./types";
import { processEnv } from "../../../env";

export interface ProviderChoice {
  name: ProviderName;
  label: string;
  /** The model used when the session does not name one. */
  defaultModel: string;
  /** Whether a person may type another model name (offline has exactly one). */
  modelEditable: boolean;
}

type Env = Record<string, string | undefined>;

export function availableProviders(env: Env = processEnv()): ProviderChoice[] {
  const out: ProviderChoice[] = [{ name: "offline", label: "Offline (rule-based, no key)", defaultModel: OFFLINE_MODEL, modelEditable: false }];
  if (providerConfigured("openai", env)) {
    out.push({ name: "openai", label: "OpenAI-compatible", defaultModel: env.OMNIFORGE_MODEL?.trim() || "gpt-4o-mini", modelEditable: true });
  }
  if (providerConfigured("anthropic", env)) {
    out.push({ name: "anthropic", label: "Anthropic", defaultModel: env.OMNIFORGE_MODEL?.trim() || "claude-sonnet-4-5", modelEditable: true });
  }
  return out;
}


/** Checks a session's provider and model against what is configured now; returns the model to store. */
export function checkProviderChoice(provider: string, model: string | undefined, env: Env = processEnv()): string {
  const choice = availableProviders(env).find((p) => p.name === provider);
  if (!choice) {
    throw new PlaygroundError("BAD_REQUEST", provider === "openai" || provider === "anthropic"
        ? `The ${provider} provider is not configured on this server (${provider === "openai" ? "OPENAI_BASE_URL or OPENAI_API_KEY" : "ANTHROPIC_API_KEY"} is not set)`
        : `Unknown provider "${provider}"`);
  }
  if (!choice.modelEditable || !model?.trim()) return choice.defaultModel;
  if (!MODEL_NAME.test(model.trim())) throw new PlaygroundError("BAD_REQUEST", `"${model}" is not a model name`);
  return model.trim();
}

/** The provider for one turn, with the session's model. Errors (a key removed since) end the turn, not the session. */
export function providerFor(provider: string, model: string, env: Env = processEnv()): ModelProvider {
  return createProvider(provider, provider === "offline" ? env : { ...env, OMNIFORGE_MODEL: model });
}

export { providerForSkillModel } from "../../runtime/agent/skill-model";
