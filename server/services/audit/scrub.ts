// Audit details are free-form, so secrets are removed here, before anything is stored or printed:
// keys that name a credential are dropped at any depth, and values are made JSON-safe (no cycles,
// no BigInt, bounded depth) so a caller's odd object can never make the audit write throw.

// Matched against the key lowercased with "-" and "_" removed, as a suffix: "apiKey", "x-api-key",
// "OPENAI_API_KEY", "csrfToken" and "clientSecret" go; "maxTokens" or "inputTokens" (usage counts) stay.
const SECRET_SUFFIXES = [
  "password",
  "passwd",
  "passphrase",
  "secret",
  "token",
  "apikey",
  "authorization",
  "cookie",
  "privatekey",
  "credential",
  "credentials",
];

export function isSecretKey(key: string): boolean {
  const k = key.toLowerCase().replace(/[-_\s]/g, "");
  return SECRET_SUFFIXES.some((s) => k.endsWith(s));
}

const MAX_DEPTH = 8;
const BEARER = /^(bearer|basic)\s+\S+/i;

function clean(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (value === null || typeof value === "boolean" || typeof value === "number") {
    return typeof value === "number" && !Number.isFinite(value) ? String(value) : value;
  }
  if (typeof value === "string") return BEARER.test(value) ? "[redacted]" : value;
  if (typeof value === "bigint") return value.toString();
  if (value === undefined || typeof value === "function" || typeof value === "symbol") return undefined;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (typeof value !== "object") return String(value);
  if (seen.has(value)) return "[circular]";
  if (depth >= MAX_DEPTH) return "[too deep]";
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((v) => clean(v, depth + 1, seen) ?? null);
    if (value instanceof Error) return { name: value.name, message: value.message };
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (isSecretKey(k)) continue;
      const c = clean(v, depth + 1, seen);
      if (c !== undefined) out[k] = c;
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

/** A JSON-safe copy of `details` without secret-named keys (recursively). */
export function scrubDetails(details: Record<string, unknown>): Record<string, unknown> {
  return clean(details, 0, new WeakSet()) as Record<string, unknown>;
}
