// The layers view keeps its what-if, search, filter and selected name in the URL, so a view can be shared and
// other pages can link to one skill's resolution (e.g. /layers?name=code-review&environment=production).
export interface LayersUrlState {
  name?: string;
  q?: string;
  overridden?: boolean;
  userId?: string;
  environment?: string;
  agent?: string;
  tenant?: string;
}

const KEYS = ["name", "q", "userId", "environment", "agent", "tenant"] as const;

export function readLayersUrl(sp: Record<string, string | string[] | undefined>): LayersUrlState {
  const out: LayersUrlState = {};
  for (const k of KEYS) {
    const v = sp[k];
    const s = (Array.isArray(v) ? v[0] : v)?.trim();
    if (s) out[k] = s.slice(0, 200);
  }
  if (sp.overridden === "1") out.overridden = true;
  return out;
}

export function writeLayersUrl(s: LayersUrlState): string {
  const sp = new URLSearchParams();
  for (const k of KEYS) {
    const v = s[k]?.trim();
    if (v) sp.set(k, v);
  }
  if (s.overridden) sp.set("overridden", "1");
  const q = sp.toString();
  return q ? `?${q}` : "";
}
