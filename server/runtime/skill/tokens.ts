// Token estimates for the stage-cost displays (metadata, body, resources). The o200k_base encoding is an
// estimate for every model (Claude and local models tokenize differently), so callers label it "~N tokens".
// The encoding takes hundreds of milliseconds to load, so it is loaded on the first call, not on import:
// validating 10,000 skills never pays for it.
import { createRequire } from "node:module";

type Counter = (text: string) => number;
let counter: Counter | null = null;

function load(): Counter {
  try {
    const require = createRequire(import.meta.url);
    const mod = require("gpt-tokenizer/encoding/o200k_base") as { countTokens: Counter };
    return (text) => mod.countTokens(text);
  } catch {
    // The tokenizer is missing from this bundle: fall back to the usual ~4 characters per token.
    return (text) => Math.ceil(text.length / 4);
  }
}

// The same long texts come back on every model call of a run and every run of a trigger test (the system prompt,
// the tool specs): their counts are remembered, a bounded number of them.
const memo = new Map<string, number>();
const MEMO_MIN_CHARS = 512;
const MEMO_MAX = 256;

/** Estimated token count of `text` (o200k_base; ~chars/4 if the tokenizer cannot load). */
export function estimateTokens(text: string): number {
  if (!text) return 0;
  counter ??= load();
  if (text.length < MEMO_MIN_CHARS) return counter(text);
  const known = memo.get(text);
  if (known !== undefined) return known;
  const n = counter(text);
  if (memo.size >= MEMO_MAX) memo.delete(memo.keys().next().value!);
  memo.set(text, n);
  return n;
}
