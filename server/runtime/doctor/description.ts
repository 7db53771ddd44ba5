// The description family: what the agent routes on. Per skill: no "when to use", too short, first person,
// vendor words. Across a catalog: overlaps, found with the one ranking (../search): each skill's description
// (and its trigger set's should-trigger queries) searched against the catalog; a query that lands on another
// skill, or puts another close behind, is a pair competing for the same requests.
import { count } from "../../domain/plural";
import { VENDOR_WORD_PATTERNS } from "../../domain/vocabulary";
import { SkillSearch } from "../search/engine";
import { nameWords, terms, termsWithWords } from "../search/text";
import { finding } from "./checks";
import { readText, type SkillContext } from "./context";
import type { Finding, Overlap } from "./types";

const WHEN = /\b(?:when|whenever|use (?:it |this )?(?:for|to|if|on|with|in)|used (?:for|to|when)|if (?:the )?(?:user|you)|asks?|asked|requests?|triggers?|for (?:tasks|requests|questions|work) (?:that|involving|about|on))\b/i;
const FIRST_PERSON = /(?:^|[^\w/'-])(?:I|I'm|I'll|I've|I'd|[Mm]e|[Mm]y|[Ww]e|[Ww]e're|[Ww]e'll|[Oo]ur|us)(?=$|[\s,.;:!?)])/;
/** Fewer words than this say too little to route on. */
export const MIN_DESCRIPTION_WORDS = 8;
export const MIN_DESCRIPTION_CHARS = 40;

export function checkDescription(ctx: SkillContext): Finding[] {
  const d = ctx.description;
  const out: Finding[] = [];
  const at = (code: Parameters<typeof finding>[0], message: string) => out.push(finding(code, message, "SKILL.md", ctx.descriptionLine, d));
  if (!d.trim()) return out; // a missing description is the validator's error, not a quality finding
  const words = d.split(/\s+/).filter(Boolean).length;
  if (words < MIN_DESCRIPTION_WORDS || d.length < MIN_DESCRIPTION_CHARS) at("description.short", `the description has ${count(words, "word")} (${count(d.length, "character")}): too few to route on`);
  if (!WHEN.test(d)) at("description.no-when", "the description does not say when to use the skill");
  // Quoted text is what users type ("review my UI") and code is code: neither is the skill speaking.
  const fp = FIRST_PERSON.exec(d.replace(/`[^`]*`|"[^"]*"|\u201c[^\u201d]*\u201d|(?<!\w)'[^']*'(?!\w)/g, " "));
  if (fp) at("description.first-person", `the description speaks in the first person ("${fp[0].trim()}")`);
  for (const w of VENDOR_WORD_PATTERNS) {
    const re = new RegExp(`\\b${w}\\b`, "i");
    if (re.test(ctx.name)) out.push(finding("description.vendor-word", `the name "${ctx.name}" contains the vendor word "${w}"`, "SKILL.md", nameLine(ctx), ctx.name));
    else if (re.test(d)) at("description.vendor-word", `the description contains the vendor word "${w}"`);
  }
  return out;
}

function nameLine(ctx: SkillContext): number {
  const i = ctx.frontmatterLines.findIndex((l) => /^name\s*:/.test(l));
  return i >= 0 ? i + 1 : 1;
}

/**
 * How close another skill must score to the searched skill's own score to count as competing. A skill's
 * distinctive description words find itself far ahead (every one matches), so a neighbour reaching a fifth of that
 * is rare: on the 40 real skills eleven pairs do (the two art skills, the qdrant scaling family, two database
 * performance reviewers, two "best practices" skills), and the ones below share only a word or two. (It was 12%
 * while the ranking gave a bonus for word pairs, which a description always has with itself.) A trigger query is a
 * request as users type it: there a neighbour within 80% (or ahead) would win some runs.
 */
export const OVERLAP_RATIO = { description: 0.2, trigger: 0.8 } as const;
const MAX_TRIGGER_QUERIES = 10;

/** The should-trigger queries of evals/triggers.json (skill-creator's format), when present and readable. */
function triggerQueries(ctx: SkillContext): string[] {
  if (!ctx.files.includes("evals/triggers.json")) return [];
  try {
    const v = JSON.parse(readText(ctx.dir, "evals/triggers.json") ?? "[]") as unknown;
    if (!Array.isArray(v)) return [];
    return v
      .filter((c): c is { query: string; should_trigger: boolean } => !!c && typeof c.query === "string" && c.should_trigger === true)
      .map((c) => c.query)
      .slice(0, MAX_TRIGGER_QUERIES);
  } catch {
    return [];
  }
}

/** Words of a description searched for it: its rarest in the catalog, in order (a whole description would cost a search per word). */
export const DESCRIPTION_QUERY_WORDS = 16;

/**
 * A word in a quarter of a small catalog's descriptions, or in 5% of a large one's (at least 10), tells no
 * pair apart; in a large catalog it would also make the search score every skill that has it (the cost).
 */
const searchable = (df: number, size: number) => size < 8 || df < Math.min(size / 4, Math.max(10, size / 20));

function distinctive(description: string, df: Map<string, number>, size: number): string {
  const tw = termsWithWords(description);
  const seen = new Set<string>();
  const unique = tw.filter((t) => !seen.has(t.term) && seen.add(t.term) && searchable(df.get(t.term) ?? 0, size));
  const keep = new Set([...unique].sort((a, b) => (df.get(a.term) ?? 0) - (df.get(b.term) ?? 0)).slice(0, DESCRIPTION_QUERY_WORDS));
  return unique.filter((t) => keep.has(t)).map((t) => t.word).join(" ");
}

/** Pairs of skills whose descriptions compete, each pair once. */
export function findOverlaps(skills: SkillContext[]): Overlap[] {
  const search = new SkillSearch();
  const byId = new Map<string, SkillContext>();
  for (const s of skills) {
    if (!s.description.trim()) continue;
    byId.set(s.dir, s);
    search.upsert({ id: s.dir, name: s.name, description: s.description, nameText: nameWords(s.name), headings: "", tags: (s.check.properties?.tags ?? []).join(" "), body: "" });
  }
  // Words in a quarter or more of the descriptions ("use", "skill", "user") explain nothing about a pair.
  const df = new Map<string, number>();
  for (const s of byId.values()) for (const t of new Set(terms(s.description))) df.set(t, (df.get(t) ?? 0) + 1);
  const generic = (term: string) => byId.size >= 8 && (df.get(term) ?? 0) >= byId.size / 4;
  const pairs = new Map<string, Overlap>();
  for (const s of byId.values()) {
    const queries = [
      { query: distinctive(s.description, df, byId.size), from: "description", min: OVERLAP_RATIO.description },
      ...triggerQueries(s).map((q) => ({ query: q, from: "evals/triggers.json", min: OVERLAP_RATIO.trigger })),
    ];
    for (const { query, from, min } of queries) {
      const r = search.search(query, { limit: 3 });
      const own = r.hits.find((h) => h.id === s.dir);
      const ownScore = own?.score ?? 0;
      for (const h of r.hits) {
        if (h.id === s.dir || ownScore <= 0) continue;
        const ratio = h.score / ownScore;
        if (ratio < min) continue;
        const other = byId.get(h.id)!;
        const [a, b] = s.dir < other.dir ? [s, other] : [other, s];
        const key = `${a.dir}\u0000${b.dir}`;
        const shared = [...new Set(h.matched.filter((m) => !m.via && !generic(m.term)).map((m) => m.word.toLowerCase()))].slice(0, 12);
        const pair = pairs.get(key) ?? {
          a: a.dir,
          b: b.dir,
          aName: a.name,
          bName: b.name,
          sharedWords: [],
          evidence: [],
          suggestion: "",
        };
        pair.sharedWords = [...new Set([...pair.sharedWords, ...shared])].slice(0, 12);
        pair.evidence.push({ query: query.length > 200 ? query.slice(0, 199) + "…" : query, from: `${s.name}: ${from}`, ratio: Math.round(ratio * 100) / 100 });
        pair.suggestion =
          `Both descriptions lean on ${pair.sharedWords.slice(0, 5).map((w) => `"${w}"`).join(", ") || "the same words"}. ` +
          `Say in "${a.name}" and "${b.name}" what each does that the other does not (inputs, outcome), and when not to use it ("not for …; use ${b.name} instead").`;
        pairs.set(key, pair);
      }
    }
  }
  return [...pairs.values()].sort((x, y) => (x.a < y.a ? -1 : x.a > y.a ? 1 : x.b < y.b ? -1 : 1));
}

/** The overlap findings of one skill (one per competing skill). */
export function overlapFindings(ctx: SkillContext, overlaps: Overlap[]): Finding[] {
  const out: Finding[] = [];
  for (const o of overlaps) {
    if (o.a !== ctx.dir && o.b !== ctx.dir) continue;
    const other = o.a === ctx.dir ? o.bName : o.aName;
    out.push(
      finding(
        "description.overlap",
        `competes with "${other}" for the same requests (shared words: ${o.sharedWords.join(", ") || "—"})`,
        "SKILL.md",
        ctx.descriptionLine,
        ctx.description,
        o.suggestion,
      ),
    );
  }
  return out;
}
