import { defaultShouldDehydrateQuery, QueryClient } from "@tanstack/react-query";
import superjson from "superjson";

export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 15 * 1000, retry: (count, err) => count < 1 && !String((err as Error)?.message).includes("FORBIDDEN") },
      dehydrate: {
        serializeData: superjson.serialize,
        shouldDehydrateQuery: (q) => defaultShouldDehydrateQuery(q) || q.state.status === "pending",
      },
      hydrate: { deserializeData: superjson.deserialize },
    },
  });
}
