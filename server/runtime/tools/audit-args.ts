// Tool arguments as they go into the audit log: secrets masked, long text cut, so the log can be read
// and exported without leaking what a model or a person typed into an env map or a token field.

const SECRET_KEY = /(secret|token|passw(or)?d|passwd|api[_-]?key|authorization|auth[_-]?header|cookie|credential|private[_-]?key|session[_-]?key)/i;
const SECRET_VALUE = [
  /\bsk-[A-Za-z0-9_-]{16,}/g, // OpenAI / Anthropic style keys
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g, // GitHub tokens
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key ids
  /\bxox[abpr]-[A-Za-z0-9-]{10,}/g, // Slack tokens
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{12,}/gi,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g,
];

export const MAX_AUDIT_STRING = 500;
export const MAX_AUDIT_JSON = 4000;

export function maskSecrets(text: string): string {
  let out = text;
  for (const re of SECRET_VALUE) out = out.replace(re, "[redacted]");
  // KEY=value in command lines (FOO_TOKEN=abc cmd)
  out = out.replace(/\b([A-Za-z_][A-Za-z0-9_]*)=(\S+)/g, (m, k: string) => (SECRET_KEY.test(k) ? `${k}=[redacted]` : m));
  return out;
}

function clean(value: unknown, depth: number): unknown {
  if (typeof value === "string") {
    const masked = maskSecrets(value);
    return masked.length > MAX_AUDIT_STRING ? `${masked.slice(0, MAX_AUDIT_STRING)}… [${masked.length} chars]` : masked;
  }
  if (value === null || typeof value === "number" || typeof value === "boolean") return value;
  if (depth > 4) return "[nested]";
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => clean(v, depth + 1));
  if (typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>).slice(0, 50)) {
      // Every value of an env map is treated as secret: scripts get a clean env, and the log gets none.
      out[k] = SECRET_KEY.test(k) || k.toLowerCase() === "env" ? "[redacted]" : clean(v, depth + 1);
    }
    return out;
  }
  return String(value);
}

/** Arguments fit for the audit log (JSON-serialisable, masked, bounded). */
export function auditArguments(input: unknown): unknown {
  const cleaned = clean(input, 0);
  const json = JSON.stringify(cleaned) ?? "null";
  return json.length > MAX_AUDIT_JSON ? { truncated: true, preview: json.slice(0, MAX_AUDIT_JSON) } : cleaned;
}
