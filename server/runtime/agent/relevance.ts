// Lexical relevance of a request to a skill's name and description. The listing budget uses it to decide
// which descriptions to shorten first; the offline provider uses it to pick a skill and explain the pick.

const STOP = new Set(
  "a an and are as at be by can do for from how i in into is it me my of on or please so that the this to use using want we what when with you your".split(" "),
);

/** Lower-case word stems: "Processing PDFs" -> ["process", "pdf"]. Crude on purpose: deterministic and explainable. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (raw.length < 2 || STOP.has(raw)) continue;
    out.push(stem(raw));
  }
  return out;
}

function stem(w: string): string {
  for (const suffix of ["ing", "ies", "es", "ed", "s"]) {
    if (w.length > suffix.length + 2 && w.endsWith(suffix)) return suffix === "ies" ? w.slice(0, -3) + "y" : w.slice(0, -suffix.length);
  }
  return w;
}

export interface Relevance {
  score: number;
  /** Request terms found in the skill's name (weight 3 each). */
  nameHits: string[];
  /** Request terms found in the description (weight 1 each). */
  descriptionHits: string[];
}

/** Name hits weigh 3, description hits 1; each distinct request term counts once. */
export function relevance(request: string, skill: { name: string; description: string }): Relevance {
  const wanted = [...new Set(terms(request))];
  const inName = new Set(terms(skill.name.replace(/-/g, " ")));
  const inDesc = new Set(terms(skill.description));
  const nameHits = wanted.filter((t) => inName.has(t));
  const descriptionHits = wanted.filter((t) => !inName.has(t) && inDesc.has(t));
  return { score: nameHits.length * 3 + descriptionHits.length, nameHits, descriptionHits };
}

/** A sentence for a person: why this score. */
export function explainRelevance(name: string, r: Relevance): string {
  const parts: string[] = [];
  if (r.nameHits.length) parts.push(`name matches ${r.nameHits.map((t) => `"${t}"`).join(", ")} (3 points each)`);
  if (r.descriptionHits.length) parts.push(`description matches ${r.descriptionHits.map((t) => `"${t}"`).join(", ")} (1 point each)`);
  return `'${name}' scored ${r.score}: ${parts.join("; ") || "no word of the request appears in its name or description"}`;
}
