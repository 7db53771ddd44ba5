// allowed-tools comes as a string ("Bash(git status:*) Read, Write") or a YAML list. Patterns may contain
// spaces and commas inside their parentheses, so the string is split on separators at depth 0 only.

/** Tool patterns as written, in order. Non-string list items and empty pieces are dropped. */
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

/** Splits on whitespace and commas outside parentheses; `balanced` is false when a parenthesis is left open or closed twice. */
const SEPARATORS = /[\s,]+/;

export function splitPatterns(text: string): { patterns: string[]; balanced: boolean } {
  // Without parentheses there is nothing to protect: a native split is enough.
  if (!text.includes("(") && !text.includes(")")) return { patterns: text.split(SEPARATORS).filter(Boolean), balanced: true };
  const patterns: string[] = [];
  let depth = 0;
  let balanced = true;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // 0x28 "(", 0x29 ")", 0x2c ",", whitespace: space, tab, newline, carriage return
    if (c === 0x28) depth++;
    else if (c === 0x29) {
      if (depth === 0) balanced = false;
      else depth--;
    }
    const separator = depth === 0 && (c === 0x2c || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d);
    if (separator) {
      if (start >= 0) patterns.push(text.slice(start, i));
      start = -1;
    } else if (start < 0) start = i;
  }
  if (start >= 0) patterns.push(text.slice(start));
  if (depth !== 0) balanced = false;
  return { patterns, balanced };
}
