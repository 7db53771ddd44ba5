// A hand parser for the block YAML nearly every SKILL.md uses: `key: value` lines; nested mappings and
// `- item` sequences at any depth (also `- key: value` items, as metadata lists of people write them); quoted
// scalars on one line; plain scalars (top-level ones also wrapped over indented lines); literal and folded
// block scalars at the top level (`description: |-`); comments. It is ~20x faster than the general YAML parser,
// which a cold process pays for dearly: a tenth of the real skills nest their metadata, and parsing those with
// the yaml package cost a validation of 600 skills a fifth of its time. Anything outside the subset (flow
// collections, anchors, tags, escapes, multi-line quoted scalars, quoted keys, tabs, duplicates, uneven
// indentation...) returns null and the yaml package parses the text instead, so results never differ for
// accepted input: values and positions alike (fast-yaml.test.ts compares both).
// One flow form is in the subset: a top-level one-line list of plain words (`tags: [a, b]`), which generated
// and real skills use for tags and allowed-tools.

import { flowList, INDICATOR_START, scalar, UNSAFE, type Scalar } from "./fast-yaml-scalars";

export interface Span {
  start: number;
  end: number;
}

/**
 * Where a key and its value sit in the frontmatter text (offsets), as the yaml package's node ranges say: a block
 * collection or block scalar runs to the end of its last line, line break included. Children for one nested
 * mapping level.
 */
export interface FieldPos {
  key: Span;
  value: Span | null;
  children?: Map<string, FieldPos>;
}

export interface FastResult {
  raw: Record<string, unknown>;
  fields: Map<string, FieldPos>;
}

/** A plain key and its colon, at the start of a line or of a line's content (quoted and complex keys are yaml's). */
const KEY = /^([A-Za-z0-9][A-Za-z0-9_.-]*):(?=[ ]|$)/;
/** How deep block collections may nest before the general parser takes over. */
const MAX_DEPTH = 16;
/** `|` or `>` with an optional strip indicator and nothing else on the line (keep `+`, indentation digits and comments go to yaml). */
const BLOCK_HEADER = /^ +([|>])(-?)$/;

type Value = string | Value[] | { [key: string]: Value };

interface Node {
  value: Value;
  start: number;
  end: number;
  /** Positions of a mapping's entries (filled for the top level's nested mappings only). */
  children?: Map<string, FieldPos>;
}

/** Signals input outside the subset; caught once in parseSimpleFrontmatter. */
const OUTSIDE = new Error("outside the fast subset");

export function parseSimpleFrontmatter(text: string): FastResult | null {
  if (UNSAFE.test(text)) return null;
  try {
    return new Reader(text).document();
  } catch (e) {
    if (e === OUTSIDE) return null;
    throw e;
  }
}

/** Line cursor over the frontmatter: each line's offset, indentation and text after the indentation. */
class Reader {
  private readonly lines: string[];
  private readonly starts: number[] = [];
  private readonly indents: number[] = [];
  private readonly contents: string[] = [];
  private i = 0;

  constructor(private readonly text: string) {
    this.lines = text.split("\n");
    let offset = 0;
    for (const line of this.lines) {
      this.starts.push(offset);
      offset += line.length + 1;
      const content = line.trimStart();
      this.contents.push(content);
      this.indents.push(line.length - content.length);
    }
  }

  /** Offset just past line `i`'s line break (or the end of the text when it has none). */
  private lineEnd(i: number): number {
    return Math.min(this.starts[i]! + this.lines[i]!.length + 1, this.text.length);
  }

  private blankOrComment(i: number): boolean {
    const c = this.contents[i]!;
    return c === "" || c.charCodeAt(0) === 0x23; /* # */
  }

  /** The next line holding content (skipping blank and comment lines), or -1. */
  private nextContent(): number {
    while (this.i < this.lines.length && this.blankOrComment(this.i)) this.i++;
    return this.i < this.lines.length ? this.i : -1;
  }

  document(): FastResult | null {
    const raw: Record<string, unknown> = {};
    const fields = new Map<string, FieldPos>();
    const { lines, starts, contents } = this;
    // A top-level plain scalar may continue on more-indented lines (formatters wrap long descriptions so);
    // YAML folds each line break into one space.
    let plain: { key: string; pos: FieldPos } | null = null;
    while (this.i < lines.length) {
      const i = this.i;
      const line = lines[i]!;
      const lineStart = starts[i]!;
      if (this.blankOrComment(i)) {
        plain = null; // a blank line would fold to "\n" and a comment ends the scalar: leave those to yaml
        this.i++;
        continue;
      }
      const indent = this.indents[i]!;
      if (indent > 0) {
        if (!plain) throw OUTSIDE;
        const content = contents[i]!.trimEnd();
        if (INDICATOR_START.test(content) || content.includes(": ") || content.endsWith(":") || content.includes(" #")) throw OUTSIDE;
        raw[plain.key] = `${raw[plain.key] as string} ${content}`;
        plain.pos.value!.end = lineStart + indent + content.length;
        this.i++;
        continue;
      }
      plain = null;
      const m = KEY.exec(line);
      if (!m) throw OUTSIDE;
      const key = m[1]!;
      if (key === "__proto__" || fields.has(key)) throw OUTSIDE;
      const keySpan = { start: lineStart, end: lineStart + key.length };
      const valueText = line.slice(key.length + 1);
      const valueBase = lineStart + key.length + 1;
      const list = flowList(valueText, valueBase);
      if (list) {
        raw[key] = list.value;
        fields.set(key, { key: keySpan, value: { start: list.start, end: list.end } });
        this.i++;
        continue; // not a plain scalar: a more-indented line after it is not a continuation (yaml decides)
      }
      const header = valueText.endsWith("|") || valueText.endsWith(">") || valueText.endsWith("-") ? BLOCK_HEADER.exec(valueText) : null;
      if (header) {
        const block = this.blockScalar(header[1] === ">", header[2] === "-", valueBase + valueText.indexOf(header[1]!));
        raw[key] = block.value;
        fields.set(key, { key: keySpan, value: { start: block.start, end: block.end } });
        continue;
      }
      const v = scalar(valueText, valueBase);
      if (!v) throw OUTSIDE;
      this.i++;
      if (v.value === "" && v.start === v.end) {
        // `key:` alone: a nested block below it, or (nothing below) an empty string, as in the failsafe schema.
        const next = this.nextContent();
        if (next >= 0 && this.indents[next]! > 0) {
          const node = this.block(0, 1);
          raw[key] = node.value;
          fields.set(key, { key: keySpan, value: { start: node.start, end: node.end }, ...(node.children ? { children: node.children } : {}) });
        } else {
          raw[key] = "";
          const colon = keySpan.end + 1;
          fields.set(key, { key: keySpan, value: { start: colon, end: colon } });
        }
        continue;
      }
      raw[key] = v.value;
      const pos: FieldPos = { key: keySpan, value: { start: v.start, end: v.end } };
      fields.set(key, pos);
      const quoted = line.charCodeAt(v.start - lineStart) === 0x22 || line.charCodeAt(v.start - lineStart) === 0x27;
      // After a comment the scalar is over; a continuation line there is a YAML error, so yaml must say so.
      if (!quoted && !line.includes(" #", v.start - lineStart)) plain = { key, pos };
    }
    return fields.size > 0 ? { raw, fields } : null;
  }

  /** The nested block starting at the next content line, indented more than `parentIndent`: a sequence or a mapping. */
  private block(parentIndent: number, depth: number): Node {
    const i = this.nextContent();
    if (i < 0 || this.indents[i]! <= parentIndent || depth > MAX_DEPTH) throw OUTSIDE;
    const c = this.contents[i]!;
    return c === "-" || c.startsWith("- ") ? this.sequence(this.indents[i]!, depth) : this.mapping(this.indents[i]!, depth);
  }

  /** `key: value` entries at exactly `indent`, from the current line; values are one-line scalars or deeper blocks. */
  private mapping(indent: number, depth: number): Node {
    const value: { [key: string]: Value } = {};
    const children = depth === 1 ? new Map<string, FieldPos>() : undefined;
    const first = this.i;
    const start = this.starts[first]! + this.indents[first]!;
    let end = start;
    let lastNested = false;
    for (let i = this.nextContent(); i >= 0 && this.indents[i]! >= indent; i = this.nextContent()) {
      if (this.indents[i]! > indent) throw OUTSIDE; // uneven indentation or a continuation line: yaml's to judge
      const content = this.contents[i]!;
      const m = KEY.exec(content);
      if (!m) throw OUTSIDE;
      const key = m[1]!;
      if (key === "__proto__" || Object.prototype.hasOwnProperty.call(value, key)) throw OUTSIDE;
      const keyStart = this.starts[i]! + indent;
      const v = scalar(content.slice(key.length + 1), keyStart + key.length + 1);
      if (!v) throw OUTSIDE;
      this.i++;
      let node: Node;
      if (v.value !== "") {
        node = { value: v.value, start: v.start, end: v.end };
        end = this.lineEnd(i);
      } else if (v.start === v.end) {
        node = this.block(indent, depth + 1); // `key:` alone opens a deeper block; an empty leaf goes to yaml
        end = node.end;
      } else throw OUTSIDE; // "" or '': yaml's
      lastNested = typeof node.value !== "string";
      value[key] = node.value;
      children?.set(key, { key: { start: keyStart, end: keyStart + key.length }, value: { start: node.start, end: node.end } });
    }
    return { value, start, end: this.trailingComments(first, end, indent, lastNested), ...(children ? { children } : {}) };
  }

  /** `- item` lines at exactly `indent`: one-line scalars, or `- key: value` mappings continued below the first key. */
  private sequence(indent: number, depth: number): Node {
    const items: Value[] = [];
    const first = this.i;
    const start = this.starts[first]! + this.indents[first]!;
    let end = start;
    let lastNested = false;
    for (let i = this.nextContent(); i >= 0 && this.indents[i]! >= indent; i = this.nextContent()) {
      if (this.indents[i]! > indent) throw OUTSIDE;
      const content = this.contents[i]!;
      if (!content.startsWith("- ")) throw OUTSIDE; // "-" alone opens a nested block: yaml's
      const after = content.slice(2);
      const gap = after.length - after.trimStart().length;
      const item = after.slice(gap);
      const column = indent + 2 + gap;
      if (item.startsWith("- ") || item === "-") throw OUTSIDE; // a sequence in a sequence
      if (KEY.test(item)) {
        if (depth + 1 > MAX_DEPTH) throw OUTSIDE;
        // A compact mapping: its first key sits on the dash's line, the others at the same column below.
        this.indents[i] = column;
        this.contents[i] = item;
        const node = this.mapping(column, depth + 1);
        items.push(node.value);
        end = node.end;
        lastNested = true;
        continue;
      }
      const v = scalar(after, this.starts[i]! + indent + 2);
      if (!v || v.value === "") throw OUTSIDE;
      items.push(v.value);
      this.i++;
      end = this.lineEnd(i);
      lastNested = false;
    }
    return { value: items, start, end: this.trailingComments(first, end, indent, lastNested) };
  }

  /**
   * Where a collection at `indent` ends, as yaml's range says: past its last entry (`end`) and past the comment lines
   * after it that are indented deeper than the collection, blank lines between them included. The unusual layouts
   * around such comments (after a shallower one, before blank lines, after a nested last entry) are left to yaml.
   * Called when the cursor stands on the next content line.
   */
  private trailingComments(from: number, end: number, indent: number, lastNested: boolean): number {
    let extended = end;
    let shallow = false;
    let blankAfter = false;
    for (let j = from; j < this.i; j++) {
      if (this.starts[j]! < end) continue;
      if (this.contents[j] === "") blankAfter = true;
      else if (this.indents[j]! <= indent) shallow = true;
      else if (shallow) throw OUTSIDE;
      else {
        extended = this.lineEnd(j);
        blankAfter = false;
      }
    }
    // yaml's range sometimes takes in the blank lines after such a comment too (at the end of the text), or the next
    // line's indentation when the last entry is itself a collection: its call.
    if (extended > end && (blankAfter || lastNested)) throw OUTSIDE;
    return extended;
  }

  /**
   * A block scalar's lines after its `|` or `>` header (at offset `at`): literal keeps the line breaks, folded joins
   * lines with spaces; clipped to one final line break, or none with `-`. Folded text with blank or more-indented
   * lines, whitespace-only lines and a last line without a line break are left to yaml.
   */
  private blockScalar(folded: boolean, strip: boolean, at: number): Node {
    this.i++;
    const { lines, indents } = this;
    let first = this.i;
    while (first < lines.length && lines[first] === "") first++;
    if (first === lines.length || indents[first]! === 0) throw OUTSIDE; // an empty block scalar
    if (folded && first > this.i) throw OUTSIDE;
    const blockIndent = indents[first]!;
    const parts: string[] = [];
    for (let i = this.i; i < first; i++) parts.push("");
    let last = first;
    let i = first;
    for (; i < lines.length; i++) {
      const line = lines[i]!;
      if (line === "") continue;
      if (indents[i]! < blockIndent) {
        if (indents[i]! > 0 || this.contents[i] === "") throw OUTSIDE; // less indented, but not back at the top level
        break;
      }
      if (this.contents[i] === "") throw OUTSIDE; // whitespace only
      if (folded && (i !== last + 1 && i !== first || indents[i] !== blockIndent || line.endsWith(" "))) throw OUTSIDE;
      for (let gap = last + 1; gap < i; gap++) parts.push("");
      parts.push(line.slice(blockIndent));
      last = i;
    }
    const end = this.starts[last]! + lines[last]!.length + 1;
    if (end > this.text.length) throw OUTSIDE; // no line break after the last line
    this.i = i;
    const value = parts.join(folded ? " " : "\n");
    return { value: strip ? value : value + "\n", start: at, end };
  }
}
