// The wire format of tRPC answers: superjson, as the client expects. Most answers hold only what JSON already
// carries (strings, numbers, booleans, null, arrays, plain objects), and for those superjson's walk, which records
// the path of every Date, Map or undefined it meets, found nothing at a tenth of a list page's CPU. Such a value
// is sent as superjson would send it ({ json } with no meta); anything else goes through superjson itself.
import superjson from "superjson";

const MAX_DEPTH = 64;

/** True when JSON.stringify would keep `v` exactly (no Date, Map, Set, undefined, bigint, NaN, class instance). */
export function isPlainJson(v: unknown, depth = 0): boolean {
  if (v === null) return true;
  switch (typeof v) {
    case "string":
    case "boolean":
      return true;
    case "number":
      // superjson keeps NaN and the infinities, which JSON turns into null.
      return Number.isFinite(v);
    case "object": {
      if (depth > MAX_DEPTH) return false;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (!isPlainJson(v[i], depth + 1)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(v) as unknown;
      if (proto !== Object.prototype && proto !== null) return false;
      for (const k in v) if (!isPlainJson((v as Record<string, unknown>)[k], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}

export const transformer = {
  serialize: (v: unknown) => (isPlainJson(v) ? { json: v } : superjson.serialize(v)),
  deserialize: superjson.deserialize,
};
