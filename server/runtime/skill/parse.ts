// Bytes -> text -> frontmatter mapping + Markdown body, with exact positions for every problem found on the way.
// Nothing in a file may throw out of here: each failure becomes a diagnostic and a null result.
import type { YAMLMap } from "yaml";
import type { Diagnostic, RuleSet } from "./types";
import { diag, FILE_RANGE, type Range } from "./diagnostics";
import { parseSimpleFrontmatter, type FieldPos, type Span } from "./fast-yaml";
import { frontmatterBounds } from "./frontmatter-bounds";
import { yamlModule as yaml } from "./yaml-module";

/** Above this the file is refused unread: no real SKILL.md comes close (the spec asks for < 500 body lines). */
export const MAX_SKILL_FILE_BYTES = 1024 * 1024;
/** Alias expansions allowed while converting YAML to values; a "billion laughs" file trips it at once. */
const MAX_ALIAS_COUNT = 50;
const MAX_YAML_DIAGNOSTICS = 20;
/** Real frontmatter is a few KiB (description <= 1024 characters); 64 KiB leaves room for any honest file. */
const MAX_FRONTMATTER_CHARS = 64 * 1024;
const MAX_FLOW_NESTING = 64;

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });


export interface ParsedSkill {
  /** Decoded text without BOM, CRLF and bare CR turned into LF; null when the bytes are not UTF-8. */
  text: string | null;
  /** The frontmatter as plain values (all scalars are strings, as in the reference parser), or null. */
  raw: Record<string, unknown> | null;
  /** Positions of the top-level keys and values (and of one nested mapping level). */
  fields: Map<string, FieldPos>;
  body: string | null;
  bodyStartLine: number;
  diagnostics: Diagnostic[];
  /** Range of a frontmatter span in SKILL.md coordinates; the opening --- line when unknown. */
  rangeOf(span: Span | null | undefined): Range;
}

/** Range of the opening --- line, where "missing field" problems point. */
export const OPENING_RANGE: Range = Object.freeze({ line: 1, column: 1, endLine: 1, endColumn: 4 });

export function decode(source: Uint8Array | string, diagnostics: Diagnostic[]): string | null {
  if (typeof source === "string") return source;
  try {
    return utf8.decode(source);
  } catch {
    const at = firstInvalidUtf8(source);
    const prefix = utf8.decode(source.subarray(0, at));
    const line = countNewlines(prefix, prefix.length) + 1;
    const column = prefix.length - (prefix.lastIndexOf("\n") + 1) + 1;
    const byte = source[at]!.toString(16).toUpperCase().padStart(2, "0");
    diagnostics.push(
      diag(
        "error",
        "encoding.utf8",
        `SKILL.md is not valid UTF-8: byte 0x${byte} at line ${line}, column ${column}. ` +
          "Save the file as UTF-8 (it looks like Latin-1 or Windows-1252).",
        { line, column, endLine: line, endColumn: column + 1 },
      ),
    );
    return null;
  }
}

export function parseSkillText(text: string, rules: RuleSet, diagnostics: Diagnostic[]): ParsedSkill {
  const result: ParsedSkill = { text: null, raw: null, fields: new Map(), body: null, bodyStartLine: 1, diagnostics, rangeOf: () => FILE_RANGE };
  if (text.charCodeAt(0) === 0xfeff) {
    text = text.slice(1);
    // skills-ref reads the BOM as content, so the file does not start with ---: a spec error. We strip it.
    diagnostics.push(
      diag(
        rules === "spec" ? "error" : "warning",
        "encoding.bom",
        "SKILL.md starts with a byte order mark (BOM); save it as UTF-8 without BOM so every tool sees --- first.",
      ),
    );
  }
  // skills-ref reads the file in Python's text mode, where CRLF and a bare CR both end a line: so do we.
  if (text.indexOf("\r") >= 0) text = text.replace(/\r\n?/g, "\n");
  result.text = text;

  if (text.trim() === "") {
    diagnostics.push(
      diag("error", "frontmatter.missing", "SKILL.md is empty. Start it with a --- line, name: and description:, and a closing --- line."),
    );
    return result;
  }
  const bounds = frontmatterBounds(text);
  if (bounds.kind === "no-opening") {
    diagnostics.push(missingFrontmatter(text, bounds.firstLine));
    return result;
  }
  // The spec only says the frontmatter is "delimited by ---"; skills-ref ends it at the first "---" after the
  // opening one, wherever it stands (a "--- " or "----" line, an indented "---", even inside a value), so we do
  // too, and say so when that is not a line of its own.
  if (bounds.kind === "unclosed") {
    diagnostics.push(
      diag(
        "error",
        "frontmatter.unclosed",
        "The frontmatter opened on line 1 is never closed: add a line with only --- after the last field.",
        OPENING_RANGE,
      ),
    );
    return result;
  }
  const { fmStart, closeAt } = bounds;
  const fmText = text.slice(fmStart, closeAt);
  const closeLine = countNewlines(text, closeAt) + 1;
  result.body = text.slice(bounds.bodyStart);
  if (!bounds.inline) {
    result.bodyStartLine = closeLine + 1;
  } else {
    result.bodyStartLine = closeLine;
    const closeLineStart = text.lastIndexOf("\n", closeAt - 1) + 1;
    const column = closeAt - closeLineStart + 1;
    diagnostics.push(
      diag(
        "warning",
        "frontmatter.inline-close",
        `The frontmatter ends at the --- on line ${closeLine}, column ${column}: spec tools end it at the first --- after the opening line, ` +
          "and read the rest as the body. Put the closing --- on a line of its own and keep --- out of the field values.",
        { line: closeLine, column, endLine: closeLine, endColumn: column + 3 },
      ),
    );
  }

  // Offsets -> line/column only when a diagnostic needs one (most skills need none).
  let lineStarts: number[] | null = null;
  const at = (offset: number) => {
    if (!lineStarts) {
      lineStarts = [0];
      for (let i = fmText.indexOf("\n"); i >= 0; i = fmText.indexOf("\n", i + 1)) lineStarts.push(i + 1);
    }
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 2, col: offset - lineStarts[lo]! + 1 }; // frontmatter starts on line 2 of SKILL.md
  };
  const rangeOfOffsets = (start: number, end: number): Range => {
    const a = at(start);
    const b = at(Math.max(start, end));
    return { line: a.line, column: a.col, endLine: b.line, endColumn: b.col };
  };
  result.rangeOf = (span) => (span ? rangeOfOffsets(span.start, span.end) : OPENING_RANGE);

  const fast = parseSimpleFrontmatter(fmText);
  if (fast) {
    result.raw = fast.raw;
    result.fields = fast.fields;
    return result;
  }
  // Guards before the general parser, whose cost grows with size and nesting (a crafted file could take seconds).
  if (fmText.length > MAX_FRONTMATTER_CHARS) {
    diagnostics.push(
      diag("error", "frontmatter.too-large", `The frontmatter is ${fmText.length} characters; the limit is ${MAX_FRONTMATTER_CHARS}. Move long text into the body.`, OPENING_RANGE),
    );
    return result;
  }
  if (nestingDepth(fmText) > MAX_FLOW_NESTING) {
    diagnostics.push(diag("error", "yaml.too-deep", `The frontmatter nests [ ] or { } more than ${MAX_FLOW_NESTING} levels deep; flatten it.`, OPENING_RANGE));
    return result;
  }

  let doc;
  try {
    doc = yaml().parseDocument(fmText, { schema: "failsafe", prettyErrors: false, uniqueKeys: true });
  } catch (e) {
    diagnostics.push(diag("error", "yaml.syntax", `Invalid YAML in frontmatter: ${(e as Error).message}`, OPENING_RANGE));
    return result;
  }
  if (doc.errors.length > 0) {
    // yaml can report one mistake twice on a line (each ": " of `a: b: c`); a person needs it once.
    const said = new Set<string>();
    for (const err of doc.errors.slice(0, MAX_YAML_DIAGNOSTICS)) {
      const duplicate = err.code === "DUPLICATE_KEY";
      // yaml marks only the key's first character; the key runs to the colon on that line.
      const keyText = duplicate ? (/^[^:\n]*/.exec(fmText.slice(err.pos[0]))?.[0] ?? "").trimEnd() : "";
      const key = keyText.replace(/^(["'])(.*)\1$/, "$2");
      const end = duplicate ? err.pos[0] + Math.max(1, keyText.length) : err.pos[1];
      // yaml reports a quote that never closes where it gave up (the end of the frontmatter): point at the opening.
      const quote = err.code === "MISSING_CHAR" ? /^Missing closing (["'])quote/.exec(err.message)?.[1] : undefined;
      const opening = quote ? unclosedQuoteAt(fmText, quote) : null;
      if (quote && opening !== null) {
        const lineEnd = fmText.indexOf("\n", opening);
        diagnostics.push(
          diag(
            "error",
            "yaml.syntax",
            `This quoted value never closes: end it with ${quote} on this line (or remove the opening ${quote}).`,
            rangeOfOffsets(opening, lineEnd < 0 ? fmText.length : lineEnd),
          ),
        );
        continue;
      }
      const range = rangeOfOffsets(err.pos[0], end);
      if (!duplicate) {
        const once = `${range.line}\n${err.message}`;
        if (said.has(once)) continue;
        said.add(once);
      }
      diagnostics.push(
        diag(
          "error",
          duplicate ? "yaml.duplicate-key" : "yaml.syntax",
          duplicate
            ? `Duplicate key${key ? ` "${key}"` : ""} in the frontmatter: keep one of them (tools disagree on which one wins).`
            : `Invalid YAML in frontmatter: ${err.message}`,
          range,
        ),
      );
    }
    return result;
  }
  for (const warning of doc.warnings.slice(0, MAX_YAML_DIAGNOSTICS)) {
    diagnostics.push(diag("warning", "yaml.warning", `YAML: ${warning.message}`, rangeOfOffsets(warning.pos[0], warning.pos[1])));
  }

  const contents = doc.contents;
  const { isMap } = yaml();
  if (!isMap(contents)) {
    const what = contents == null ? "empty" : "not a mapping of fields";
    diagnostics.push(
      diag(
        "error",
        "frontmatter.not-mapping",
        `The frontmatter is ${what}: write it as "key: value" lines, at least name: and description:.`,
        contents?.range ? rangeOfOffsets(contents.range[0], contents.range[1]) : OPENING_RANGE,
      ),
    );
    return result;
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    const aliasBomb = e instanceof ReferenceError;
    diagnostics.push(
      diag(
        "error",
        aliasBomb ? "yaml.alias-limit" : "yaml.syntax",
        aliasBomb
          ? "The frontmatter expands YAML aliases too many times (a resource-exhaustion pattern); write the values out."
          : `Invalid YAML in frontmatter: ${(e as Error).message}`,
        OPENING_RANGE,
      ),
    );
    return result;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    diagnostics.push(diag("error", "frontmatter.not-mapping", "The frontmatter is not a mapping of fields.", OPENING_RANGE));
    return result;
  }
  result.raw = value as Record<string, unknown>;
  result.fields = positionsOf(contents);
  return result;
}

const spanOf = (node: unknown): Span | null => {
  const range = (node as { range?: [number, number, number] } | null)?.range;
  return range ? { start: range[0], end: range[1] } : null;
};

/** Key/value positions from the yaml package's nodes, in the same shape the fast path produces. */
function positionsOf(map: YAMLMap, depth = 0): Map<string, FieldPos> {
  const { isMap, isScalar } = yaml();
  const out = new Map<string, FieldPos>();
  for (const pair of map.items) {
    if (!isScalar(pair.key)) continue;
    const key = String(pair.key.value);
    if (out.has(key)) continue;
    const pos: FieldPos = { key: spanOf(pair.key)!, value: spanOf(pair.value) };
    if (depth === 0 && isMap(pair.value)) pos.children = positionsOf(pair.value, 1);
    out.set(key, pos);
  }
  return out;
}

function missingFrontmatter(text: string, firstLine: string): Diagnostic {
  const trimmedStart = text.replace(/^[\s\uFEFF]+/, "");
  let message = "SKILL.md must start with YAML frontmatter: a first line with only ---, then name: and description:, then ---.";
  if (firstLine.trim() === "---") message = "The opening --- must be at the very start of line 1: remove the whitespace before it.";
  else if (firstLine.trim() === "" && trimmedStart.startsWith("---")) {
    message = "The opening --- must be on line 1: remove the blank lines before it.";
  } else if (/^-{3,}/.test(firstLine)) message = "The first line must be exactly --- (nothing else on it).";
  return diag("error", "frontmatter.missing", message, { line: 1, column: 1, endLine: 1, endColumn: Math.max(2, firstLine.length + 1) });
}

/**
 * Offset of the quote that opens a `quote`-quoted value and never closes in `text` (the last one that opens a value
 * and finds no end), or null. A quote counts as opening only where a value or key begins (line start, after ": ",
 * "- " or a flow bracket): an apostrophe inside a plain value is text.
 */
function unclosedQuoteAt(text: string, quote: string): number | null {
  let open: number | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (open !== null) {
      if (quote === '"' && c === "\\") i++;
      else if (c === quote) {
        if (quote === "'" && text[i + 1] === "'") i++;
        else open = null;
      }
    } else if (c === quote && /(^|\n)[ \t]*([-?:] +|[[{,][ \t]*)?$|[:\-,[{][ \t]+$|[[{,]$/.test(text.slice(Math.max(0, text.lastIndexOf("\n", i - 1)), i))) open = i;
    else if (c === "#" && (i === 0 || text[i - 1] === " " || text[i - 1] === "\t" || text[i - 1] === "\n")) {
      const nl = text.indexOf("\n", i);
      i = nl < 0 ? text.length : nl;
    }
  }
  return open;
}

/** Deepest [ ] / { } nesting, ignoring quotes: a cheap upper bound that is exact for honest files. */
function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = text.search(/[[{]/); i >= 0 && i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) max = Math.max(max, ++depth);
    else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return max;
}

function countNewlines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < end; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** Offset of the first byte that breaks UTF-8 (only called after a fatal decode failed). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return i;
    if (need > 0) {
      if (i + need >= bytes.length) return i; // truncated sequence at the end
      try {
        utf8.decode(bytes.subarray(i, i + need + 1));
      } catch {
        return i;
      }
    }
    i += need + 1;
  }
  return Math.max(0, bytes.length - 1);
}
