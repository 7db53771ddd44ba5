// Token estimates for the stage-cost displays (metadata, body, resources). The o200k_base encoding is an
// estimate for every model (Claude and local models tokenize differently), so callers label it "~N tokens".
// The encoding takes hundreds of milliseconds to load, so it is loaded on the first call, not on import:
// validating 10,000 skills never pays for it. The console loads it at start instead (loadTokenizer), before it
// listens: loaded by the first trigger run's listing, it held every other request for 0.1-0.3 s (issue 35 item 5).
import { createRequire } from "node:module";

type Counter = (text: string) => number;
let counter: Counter | null = null;

function load(): Counter {
  try {
    const require = createRequire(import.meta.url);
    const mod = require("gpt-tokenizer/encoding/o200k_base") as { countTokens: Counter };
    return (text) => mod.countTokens(text);
  } catch {
    return fallback;
  }
}

/** The tokenizer is missing from this bundle: the usual ~4 characters per token. */
const fallback: Counter = (text) => Math.ceil(text.length / 4);

// The same long texts come back on every model call of a run and every run of a trigger test (the system prompt,
// the tool specs): their counts are remembered, a bounded number of them.
const memo = new Map<string, number>();
const MEMO_MIN_CHARS = 512;
const MEMO_MAX = 256;

/**
 * Text without whitespace is counted in pieces of this many characters: BPE's merging is quadratic in the length of
 * such a run, and a model's 400,000 characters of base64 in one tool argument took 90 s of blocked CPU to estimate.
 */
const MAX_RUN = 256;
const LONG_RUN = new RegExp(`\\S{${MAX_RUN + 1},}`);

function countBounded(count: Counter, text: string): number {
  if (!LONG_RUN.test(text)) return count(text);
  let n = 0;
  let last = 0;
  for (const m of text.matchAll(new RegExp(LONG_RUN.source, "g"))) {
    n += count(text.slice(last, m.index));
    for (let i = 0; i < m[0].length; i += MAX_RUN) n += count(m[0].slice(i, i + MAX_RUN));
    last = m.index + m[0].length;
  }
  return n + count(text.slice(last));
}

/** Loads the encoding now, if it is not yet loaded; says whether the real tokenizer (not the fallback) counts. */
export function loadTokenizer(): boolean {
  counter ??= load();
  return counter !== fallback;
}

/** Estimated token count of `text` (o200k_base; ~chars/4 if the tokenizer cannot load). */
export function estimateTokens(text: string): number {
  if (!text) return 0;
  counter ??= load();
  if (text.length < MEMO_MIN_CHARS) return countBounded(counter, text);
  const known = memo.get(text);
  if (known !== undefined) return known;
  const n = countBounded(counter, text);
  if (memo.size >= MEMO_MAX) memo.delete(memo.keys().next().value!);
  memo.set(text, n);
  return n;
}
