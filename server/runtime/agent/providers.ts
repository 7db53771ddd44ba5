// Choosing a provider by name and environment. The offline provider is the default: it needs nothing.
import { anthropicProvider, openAiCompatibleProvider, ProviderConfigError } from "./ai-providers";
import { OfflineProvider } from "./offline";
import { PROVIDER_NAMES, type ModelProvider, type ProviderName } from "./types";

export function isProviderName(v: string): v is ProviderName {
  return (PROVIDER_NAMES as readonly string[]).includes(v);
}

/** offline (default) | openai (OPENAI_BASE_URL, OPENAI_API_KEY, OMNIFORGE_MODEL) | anthropic (ANTHROPIC_API_KEY). */
export function createProvider(name: string | undefined, env: Record<string, string | undefined>): ModelProvider {
  const chosen = name?.trim() || env.OMNIFORGE_PROVIDER?.trim() || "offline";
  if (!isProviderName(chosen)) throw new ProviderConfigError(`Unknown provider "${chosen}": use ${PROVIDER_NAMES.join(", ")}`);
  if (chosen === "openai") return openAiCompatibleProvider(env);
  if (chosen === "anthropic") return anthropicProvider(env);
  return new OfflineProvider();
}
