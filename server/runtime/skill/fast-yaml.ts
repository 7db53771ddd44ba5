// A hand parser for the plain frontmatter nearly every SKILL.md uses: `key: value` lines, one level of
// nested `key: value` or `- item` lines, quoted scalars on one line, plain scalars (also wrapped over
// indented lines), comments. It is ~20x faster
// than the general YAML parser (the registry loads 10,000 skills). Anything outside that subset (flow
// collections, block scalars, anchors, escapes, multi-line quoted scalars, quoted keys, tabs, duplicates...)
// returns null and the yaml package parses the text instead, so results never differ for accepted input.
// One flow form is in the subset: a top-level one-line list of plain words (`tags: [a, b]`), which generated
// and real skills use for tags and allowed-tools; without it each such file paid for the full YAML parser.

export interface Span {
  start: number;
  end: number;
}

/** Where a key and its value sit in the frontmatter text (offsets); children for one nested mapping level. */
export interface FieldPos {
  key: Span;
  value: Span | null;
  children?: Map<string, FieldPos>;
}

export interface FastResult {
  raw: Record<string, unknown>;
  fields: Map<string, FieldPos>;
}

const KEY_LINE = /^([A-Za-z0-9][A-Za-z0-9_.-]*):(?=[ ]|$)/;
const NESTED_KEY = /^([A-Za-z0-9][A-Za-z0-9_.-]*):(?=[ ]|$)/;
// Control characters, tabs, CR, BOM and non-characters: the general parser decides what they mean.
const UNSAFE = /[\x00-\x09\x0b-\x1f\x7f-\x9f\ufeff\ufffe\uffff]/;
// First characters that make a scalar something other than a plain or simple quoted string.
const INDICATOR_START = /^[-?:,[\]{}#&*!|>%@`]/;

/** A plain flow-sequence item: starts with a letter/digit/_, then letters, digits, spaces and `_./+@()-` only. */
const FLOW_ITEM = /^[\p{L}\p{N}_][\p{L}\p{N}_ ./+@()-]*$/u;
/** FLOW_ITEM's ASCII part, tried first: a Unicode property class costs several times more per test. */
const FLOW_ITEM_ASCII = /^[A-Za-z0-9_][A-Za-z0-9_ ./+@()-]*$/;

/** `[a, b c]` on one line at the start of `text` (after spaces); null when anything else is in it. */
function flowList(text: string, base: number): { value: string[]; start: number; end: number } | null {
  let i = 0;
  while (text.charCodeAt(i) === 0x20) i++;
  if (text.charCodeAt(i) !== 0x5b /* [ */) return null;
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

interface Scalar {
  value: string;
  start: number;
  end: number;
}

/** Parses `text` (value part of a line, starting at offset `base`); null when not in the simple subset. */
function scalar(text: string, base: number): Scalar | null {
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

export function parseSimpleFrontmatter(text: string): FastResult | null {
  if (UNSAFE.test(text)) return null;
  const raw: Record<string, unknown> = {};
  const fields = new Map<string, FieldPos>();
  const lines = text.split("\n");
  let offset = 0;
  let open: { key: string; pos: FieldPos; indent: number; kind: "map" | "seq" | null; items: unknown } | null = null;
  // A top-level plain scalar may continue on more-indented lines (formatters wrap long descriptions so);
  // YAML folds each line break into one space.
  let plain: { key: string; pos: FieldPos } | null = null;

  const closeOpen = (): boolean => {
    if (!open) return true;
    if (open.kind === null) raw[open.key] = ""; // `key:` with nothing under it is an empty string (failsafe schema)
    else raw[open.key] = open.items;
    open = null;
    return true;
  };

  for (const line of lines) {
    const lineStart = offset;
    offset += line.length + 1;
    const trimmed = line.trimStart();
    if (trimmed === "" || trimmed.startsWith("#")) {
      plain = null; // a blank line would fold to "\n" and a comment ends the scalar: leave those to yaml
      continue;
    }
    const indent = line.length - trimmed.length;
    if (indent > 0 && plain) {
      const content = trimmed.trimEnd();
      if (INDICATOR_START.test(content) || content.includes(": ") || content.endsWith(":") || content.includes(" #")) return null;
      raw[plain.key] = `${raw[plain.key] as string} ${content}`;
      plain.pos.value!.end = lineStart + indent + content.length;
      continue;
    }
    plain = null;
    if (indent > 0) {
      // Only a nested block under a `key:` line with an empty value is in the subset.
      if (!open) return null;
      if (open.indent >= 0 && indent !== open.indent) return null;
      const contentStart = lineStart + indent;
      if (trimmed.startsWith("- ") || trimmed === "-") {
        if (open.kind === "map") return null;
        open.kind = "seq";
        open.indent = indent;
        const item = scalar(trimmed.slice(1), contentStart + 1);
        if (!item || item.value === "") return null;
        (open.items as string[] | undefined) ?? (open.items = []);
        (open.items as string[]).push(item.value);
        open.pos.value = { start: open.pos.value?.start ?? contentStart, end: item.end };
        continue;
      }
      const m = NESTED_KEY.exec(trimmed);
      if (!m || open.kind === "seq") return null;
      open.kind = "map";
      open.indent = indent;
      const key = m[1]!;
      const items = (open.items ??= {}) as Record<string, string>;
      if (key === "__proto__" || Object.prototype.hasOwnProperty.call(items, key)) return null;
      const v = scalar(trimmed.slice(key.length + 1), contentStart + key.length + 1);
      if (!v || v.value === "") return null; // an empty nested value may open a deeper level
      items[key] = v.value;
      const children = (open.pos.children ??= new Map());
      children.set(key, { key: { start: contentStart, end: contentStart + key.length }, value: { start: v.start, end: v.end } });
      open.pos.value = { start: open.pos.value?.start ?? contentStart, end: v.end };
      continue;
    }
    closeOpen();
    const m = KEY_LINE.exec(line);
    if (!m) return null;
    const key = m[1]!;
    if (key === "__proto__" || fields.has(key)) return null;
    const keySpan = { start: lineStart, end: lineStart + key.length };
    const valueText = line.slice(key.length + 1);
    const list = flowList(valueText, lineStart + key.length + 1);
    if (list) {
      raw[key] = list.value;
      fields.set(key, { key: keySpan, value: { start: list.start, end: list.end } });
      continue; // not a plain scalar: a more-indented line after it is not a continuation (yaml decides)
    }
    const v = scalar(valueText, lineStart + key.length + 1);
    if (!v) return null;
    if (v.value === "" && v.start === v.end) {
      const pos: FieldPos = { key: keySpan, value: null };
      fields.set(key, pos);
      open = { key, pos, indent: -1, kind: null, items: undefined };
      continue;
    }
    raw[key] = v.value;
    const pos: FieldPos = { key: keySpan, value: { start: v.start, end: v.end } };
    fields.set(key, pos);
    const quoted = line.charCodeAt(v.start - lineStart) === 0x22 || line.charCodeAt(v.start - lineStart) === 0x27;
    // After a comment the scalar is over; a continuation line there is a YAML error, so yaml must say so.
    if (!quoted && !line.includes(" #", v.start - lineStart)) plain = { key, pos };
  }
  closeOpen();
  for (const [key, pos] of fields) {
    if (pos.value === null && raw[key] === "") {
      const colon = pos.key.end + 1;
      pos.value = { start: colon, end: colon };
    }
  }
  return fields.size > 0 ? { raw, fields } : null;
}
