// The scalars of the fast frontmatter subset (fast-yaml.ts reads the lines and collections): plain and simply
// quoted one-line scalars, and the one flow form in the subset, a one-line list of plain words. Each returns null
// for anything outside the subset, and the general YAML parser takes the whole text instead.

// Control characters, tabs, CR, BOM and non-characters: the general parser decides what they mean. So do the
// Unicode spaces, which YAML reads as content (only space and tab separate) but JavaScript's trim() strips: with
// them out, every trim below removes exactly what YAML would.
export const UNSAFE = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\ufffe\uffff]/;
// First characters that make a scalar something other than a plain or simple quoted string.
export const INDICATOR_START = /^[-?:,[\]{}#&*!|>%@`]/;

/** A plain flow-sequence item: starts with a letter/digit/_, then letters, digits, spaces and `_./+@()-` only. */
const FLOW_ITEM = /^[\p{L}\p{N}_][\p{L}\p{N}_ ./+@()-]*$/u;
/** FLOW_ITEM's ASCII part, tried first: a Unicode property class costs several times more per test. */
const FLOW_ITEM_ASCII = /^[A-Za-z0-9_][A-Za-z0-9_ ./+@()-]*$/;

/** `[a, b c]` on one line at the start of `text` (after spaces); null when anything else is in it. */
export function flowList(text: string, base: number): { value: string[]; start: number; end: number } | null {
  // Reads stay inside the text: a charCodeAt past the end (an empty value, as after `metadata:`) made the compiler
  // throw away its optimised code for this function and its caller.
  let i = 0;
  while (i < text.length && text.charCodeAt(i) === 0x20) i++;
  if (i === text.length || text.charCodeAt(i) !== 0x5b /* [ */) return null;
  const close = text.indexOf("]", i);
  if (close < 0 || !isTrailer(text.slice(close + 1))) return null;
  const inner = text.slice(i + 1, close);
  const value: string[] = [];
  if (inner.trim() !== "") {
    for (const part of inner.split(",")) {
      const item = part.trim(); // only spaces: tabs and other whitespace never reach here (UNSAFE)
      if (!FLOW_ITEM_ASCII.test(item) && !FLOW_ITEM.test(item)) return null; // empty items, trailing commas, quotes, ':' '#' and nesting go to yaml
      value.push(item);
    }
  }
  return { value, start: base + i, end: base + close + 1 };
}

export interface Scalar {
  value: string;
  start: number;
  end: number;
}

/** Parses `text` (value part of a line, starting at offset `base`); null when not in the simple subset. */
export function scalar(text: string, base: number): Scalar | null {
  let i = 0;
  while (i < text.length && text.charCodeAt(i) === 0x20) i++;
  if (i === text.length) return { value: "", start: base + i, end: base + i };
  const rest = text.slice(i);
  const start = base + i;
  const q = rest[0];
  if (q === '"') {
    const close = rest.indexOf('"', 1);
    if (close < 0) return null;
    const inner = rest.slice(1, close);
    if (inner.includes("\\") || !isTrailer(rest.slice(close + 1))) return null;
    return { value: inner, start, end: start + close + 1 };
  }
  if (q === "'") {
    let j = 1;
    let value = "";
    for (;;) {
      const close = rest.indexOf("'", j);
      if (close < 0) return null;
      value += rest.slice(j, close);
      if (rest[close + 1] === "'") {
        value += "'";
        j = close + 2;
        continue;
      }
      if (!isTrailer(rest.slice(close + 1))) return null;
      return { value, start, end: start + close + 1 };
    }
  }
  if (INDICATOR_START.test(rest)) return null;
  // A plain scalar ends at " #" (comment); ": " or a final ":" would make it a nested mapping.
  const comment = rest.indexOf(" #");
  const content = (comment >= 0 ? rest.slice(0, comment) : rest).trimEnd();
  if (content.includes(": ") || content.endsWith(":") || content === "") return null;
  return { value: content, start, end: start + content.length };
}

/** After a closing quote only spaces or a comment may follow. */
function isTrailer(s: string): boolean {
  const t = s.trimStart();
  return t === "" || (t.startsWith("#") && s.length > t.length);
}
