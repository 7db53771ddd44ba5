// What each addition to BM25F in the one ranking (server/runtime/search/engine.ts) brings, one switched off at a
// time, on every request set. On the second catalog set (held out whole) this is measurement, never tuning: a part
// may be removed or weakened because of it, no weight is chosen on it (docs/search-tuning.md: "Third pass").
import { TUNING } from "../../../server/runtime/search/engine";
import { measureRouting, type RequestCase } from "../../../server/runtime/search/evaluate";
import type { SkillSearch } from "../../../server/runtime/search/engine";
import type { SkillEntry } from "../../../server/runtime/registry/types";

/** Runs `f` with some knobs of the ranking changed, then puts them back. */
export function withTuning<T>(over: Partial<typeof TUNING>, f: () => T): T {
  const saved = structuredClone(TUNING);
  Object.assign(TUNING, over);
  try {
    return f();
  } finally {
    Object.assign(TUNING, saved);
  }
}

/** Each addition switched off on its own. */
export const ABLATIONS: Record<string, Partial<typeof TUNING>> = {
  "no synonyms": { synonym: 0, synonymCredit: 0 },
  "no near spellings": { spelling: 0 },
  "no name bonus": { name: 0 },
  "no name prefixes": { prefix: 0 },
  "confidence does not scale the score": { floor: 1e6 },
  "no tags field": { boost: { ...TUNING.boost, tags: 0 } },
  "lead-ins read as the ask": { lead: 1 },
  "no broader vocabulary": { vocabulary: 0 },
};

type Locate = string | ((rel: string) => string);

/** One line per ablation (and the ranking as it is): per set, top-1 / top-3 %, served answered, no-skill abstained. */
export function ablationTable(entries: SkillEntry[], search: SkillSearch, sets: Record<string, RequestCase[]>, root: Locate): Record<string, Record<string, string>> {
  const pct = (x: number) => (x * 100).toFixed(1);
  const row = () =>
    Object.fromEntries(
      Object.entries(sets).map(([name, cases]) => {
        const m = measureRouting(entries, search, cases, root);
        return [name, `${pct(m.top1)} / ${pct(m.top3)}, answered ${m.single - m.wrongAbstain}/${m.single}, abstained ${Math.round(m.abstainRecall * m.none)}/${m.none}`];
      }),
    );
  const out: Record<string, Record<string, string>> = { "as it is": row() };
  for (const [name, over] of Object.entries(ABLATIONS)) out[name] = withTuning(over, row);
  return out;
}
