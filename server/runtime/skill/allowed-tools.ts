// allowed-tools, read once for everything (the skill's properties, the validator, the tool executor): a
// string ("Bash(git status:*) Read, Write") or a YAML list. Patterns may contain spaces and commas inside their
// parentheses, so a string is split on separators (commas and any whitespace) at depth 0 only.

/** Tool patterns as written, in order. A list keeps each item whole; non-string items and empty pieces are dropped. */
export function parseAllowedTools(value: unknown): string[] {
  if (typeof value === "string") return splitPatterns(value).patterns;
  if (Array.isArray(value)) {
    const out: string[] = [];
    for (const item of value) {
      if (typeof item !== "string") continue;
      const trimmed = item.trim();
      if (trimmed) out.push(trimmed);
    }
    return out;
  }
  return [];
}

const SEPARATORS = /[\s,]+/;
const SEPARATOR = /[\s,]/;

/** Splits on whitespace and commas outside parentheses; `balanced` is false when a parenthesis is left open or closed twice. */
export function splitPatterns(text: string): { patterns: string[]; balanced: boolean } {
  // Without parentheses there is nothing to protect: a native split is enough.
  if (!text.includes("(") && !text.includes(")")) return { patterns: text.split(SEPARATORS).filter(Boolean), balanced: true };
  const patterns: string[] = [];
  let depth = 0;
  let balanced = true;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "(") depth++;
    else if (c === ")") {
      if (depth === 0) balanced = false;
      else depth--;
    }
    // The same separators as the split above, so parentheses elsewhere in the value change nothing.
    if (depth === 0 && SEPARATOR.test(c)) {
      if (start >= 0) patterns.push(text.slice(start, i));
      start = -1;
    } else if (start < 0) start = i;
  }
  if (start >= 0) patterns.push(text.slice(start));
  if (depth !== 0) balanced = false;
  return { patterns, balanced };
}
