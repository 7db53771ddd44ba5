// One value per server process, kept on globalThis so Next's dev reloads and its several bundles (route handlers,
// server components, instrumentation) share it instead of each making their own. Every singleton goes through here.
const store = globalThis as unknown as { __omniforge?: Map<string, unknown> };

/** A getter for the process's one `name` value, made by `make` on first use. */
export function processWide<T>(name: string, make: () => T): () => T {
  return () => {
    const map = (store.__omniforge ??= new Map());
    if (!map.has(name)) map.set(name, make());
    return map.get(name) as T;
  };
}
