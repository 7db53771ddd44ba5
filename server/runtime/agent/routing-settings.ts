// What routing gets from the host's settings (env.ts), read in one place for every door that routes: the process's
// hybrid ranker when an embeddings endpoint is configured, and how many of the best-ranked skills a model provider
// is asked to choose among. Both are off unless set.
import type { EmbeddingsConfig } from "../search/embeddings";
import { hybridRankerFor, type HybridRanker } from "../search/hybrid";

export interface RoutingExtras {
  /** Meaning fused with words (search/hybrid.ts); absent: words alone. */
  meaning?: HybridRanker;
  /** Ask a model provider to choose among the ranking's first k (0 or absent: it is not asked). */
  pickTopK?: number;
}

type EnvSource = Record<string, string | undefined>;

/** The embeddings endpoint named by the settings, or null when none is (both URL and model are needed). */
async function embeddingsSettings(env: EnvSource): Promise<EmbeddingsConfig | null> {
  if (!env.OMNIFORGE_EMBEDDINGS_URL?.trim() && !env.OMNIFORGE_EMBEDDINGS_MODEL?.trim()) return null;
  // Loaded only when set: the settings' checks (zod) would otherwise cost every CLI search the time of a few requests.
  const { setting } = await import("../../../env");
  const url = setting("OMNIFORGE_EMBEDDINGS_URL", env);
  const model = setting("OMNIFORGE_EMBEDDINGS_MODEL", env);
  if (!url || !model) throw new Error("meaning search needs both OMNIFORGE_EMBEDDINGS_URL and OMNIFORGE_EMBEDDINGS_MODEL");
  const key = setting("OMNIFORGE_EMBEDDINGS_API_KEY", env);
  return { url, model, ...(key ? { key } : {}) };
}

/** The routing extras of these settings, with skill vectors kept under `home` (the data home). */
export async function routingFromSettings(env: EnvSource, home: string): Promise<RoutingExtras> {
  const cfg = await embeddingsSettings(env);
  const pick = env.OMNIFORGE_ROUTING_PICK_TOP_K?.trim() ? (await import("../../../env")).setting("OMNIFORGE_ROUTING_PICK_TOP_K", env) : 0;
  return { ...(cfg ? { meaning: hybridRankerFor(cfg, home) } : {}), ...(pick ? { pickTopK: pick } : {}) };
}
