// A hit's explanation in words: which request words matched in which of the skill's fields, through what
// (a synonym, a near spelling, an earlier turn), and the confidence.
import { FIELDS, type SearchField } from "./document";

export interface MatchedWord {
  /** The word as the person typed it (for a synonym: the typed word it stands for). */
  word: string;
  /** For a synonym: the equivalent word that matched ("slides" matched as "pptx"). */
  as?: string;
  /** The skill's term it matched (differs from the word's stem for synonyms, prefixes and spellings). */
  term: string;
  fields: SearchField[];
  via?: "synonym" | "earlier turn" | "lead-in" | "prefix" | "spelling";
}

const FIELD_PHRASE: Record<SearchField, string> = { name: "name matches", description: "description matches", headings: "headings match", tags: "tags match", body: "body matches" };

/** "name matches 'latency'; description matches 'p99', 'tail'; body matches 'qdrant' (confidence 69%)". */
export function explain(matched: MatchedWord[], namesSkill: boolean, confidence: number): string {
  if (!matched.length) return "no word of the request appears in this skill";
  // Each word once, under the strongest field it matched; a word matched directly is not repeated as a synonym.
  const best = new Map<string, { field: SearchField; direct: boolean; as: string[]; note?: string }>();
  for (const m of matched) {
    const field = m.fields[0]!;
    const key = m.word;
    const cur = best.get(key);
    const direct = m.via === undefined || m.via === "prefix" || m.via === "spelling";
    if (!cur || (direct && !cur.direct) || (direct === cur.direct && FIELDS.indexOf(field) < FIELDS.indexOf(cur.field))) {
      const note = m.via === "prefix" ? `in '${m.term}'` : m.via === "spelling" ? `read as '${m.as ?? m.term}'` : m.via === "earlier turn" ? "from an earlier turn" : m.via === "lead-in" ? "from the lead-in" : undefined;
      best.set(key, { field, direct, as: cur && !direct ? cur.as : [], ...(note ? { note } : {}) });
    }
    const b = best.get(key)!;
    if (m.via === "synonym" && !b.direct && m.as && !b.as.includes(m.as) && b.as.length < 3) b.as.push(m.as);
  }
  const byField = new Map<SearchField, string[]>();
  for (const [word, b] of best) {
    const label = `'${word}'${b.as.length ? ` (as ${b.as.map((a) => `'${a}'`).join(", ")})` : b.note ? ` (${b.note})` : ""}`;
    byField.set(b.field, [...(byField.get(b.field) ?? []), label]);
  }
  const parts = FIELDS.filter((f) => byField.has(f)).map((f) => `${FIELD_PHRASE[f]} ${byField.get(f)!.join(", ")}`);
  if (namesSkill) parts.push("the request names the skill");
  return `${parts.join("; ")} (confidence ${Math.round(confidence * 100)}%)`;
}
