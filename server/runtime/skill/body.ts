// Checks on the Markdown body: its length, and every file it points at (links, and scripts/ references/ assets/
// paths written in prose or code). A path that leaves the skill folder cannot work (the tools refuse it) and may
// be an attempt to make an agent read something it should not.
import type { Diagnostic, FileLookup, RuleSet } from "./types";
import { diag } from "./diagnostics";
import { resolveInsideSkill, type RelativePath } from "./paths";
import { FORMAT_LIMITS } from "../../domain/vocabulary";

/** The spec's advisory budget: ~5000 tokens, which it equates to ~20,000 characters. */
export const ADVISORY_BODY_CHARS = 20_000;
const MAX_REFERENCE_DIAGNOSTICS = 50;

/** The folders a bare path is recognised by. Each ends in "s/": the slash scan below looks for that first. */
const RESOURCE_DIRS = ["scripts/", "references/", "assets/"];
/** Characters after which a resource path starts: whitespace, quotes, backtick, "=" (flags like --file=). */
const BARE_PREFIX = new Set([0x20, 0x09, 0x0a, 0x60, 0x27, 0x22, 0x3d]);
/** First character after a bare path (sticky search from the path start). */
const BARE_END = /[\s`'"()[\]<>|]|$/g;
/** First character after a link target. */
const TARGET_END = /[\s)]|$/g;
/** First character after a file:// URL. */
const FILE_URL_END = /[\s`'")>]|$/g;
/** What may stand before a file:// URL (besides the start of the body). */
const FILE_URL_PREFIX = /[\s`'"<]/;
const TRAILING_PUNCTUATION = /[.,;:!?]+$/;
const FENCE_MARKS = ["```", "~~~"];
/** Globs and template placeholders describe a kind of file, not one that must exist. */
const PLACEHOLDER = /[*?<>{}$]|\.\.\./;

export function checkBody(
  body: string,
  bodyStartLine: number,
  rules: RuleSet,
  diagnostics: Diagnostic[],
  fileExists?: FileLookup,
): void {
  const lineCount = countLines(body);
  if (lineCount > FORMAT_LIMITS.bodyLines) {
    const line = bodyStartLine + FORMAT_LIMITS.bodyLines;
    diagnostics.push(
      diag(
        "warning",
        "body.too-long",
        `The body has ${lineCount} lines; keep it under ${FORMAT_LIMITS.bodyLines} and move detail into references/ files linked from it.`,
        { line, column: 1, endLine: line, endColumn: 1 },
      ),
    );
  }
  if (body.length > ADVISORY_BODY_CHARS) {
    diagnostics.push(
      diag(
        "warning",
        "body.large",
        `The body is about ${Math.round(body.length / 4)} tokens (estimated from ${body.length} characters); the spec advises under 5000. ` +
          "Move detail into references/ files.",
        { line: bodyStartLine, column: 1, endLine: bodyStartLine, endColumn: 1 },
      ),
    );
  }
  checkReferences(body, bodyStartLine, rules, diagnostics, fileExists);
}

function countLines(body: string): number {
  if (body === "") return 0;
  // indexOf steps: half the cost of body.match(/\n/g), which builds an array of every match.
  let breaks = 0;
  for (let i = body.indexOf("\n"); i >= 0; i = body.indexOf("\n", i + 1)) breaks++;
  return body.endsWith("\n") ? breaks : breaks + 1;
}

/**
 * Offsets of the lines that open or close a fenced code block: up to three spaces, then ``` or ~~~ (CommonMark).
 * Found by searching for the marks themselves (a fast scan), not by a multiline regex tried at every line start.
 */
function fenceLines(body: string): number[] {
  const starts: number[] = [];
  for (const mark of FENCE_MARKS) {
    for (let i = body.indexOf(mark); i >= 0; i = body.indexOf(mark, i + 3)) {
      const lineStart = body.lastIndexOf("\n", i - 1) + 1;
      if (i - lineStart > 3) continue;
      let indent = lineStart;
      while (indent < i && body.charCodeAt(indent) === 0x20) indent++;
      if (indent === i) starts.push(lineStart);
    }
  }
  // A line holds at most one opening mark, so merging the two lists is a sort without duplicates.
  return starts.sort((a, b) => a - b);
}

/** A file reference as written in the body (a link target or a bare resource path) and its offset, in body order. */
export interface BodyReference {
  written: string;
  at: number;
}

/** Every file reference of the body: link targets outside code fences, bare scripts/ references/ assets/ paths, file:// URLs. */
export function referencesIn(body: string): BodyReference[] {
  // Whole-body substring searches, not a per-line loop or regex: most lines mention no file, and bodies are
  // checked by the hundred. Fenced code blocks are tracked by offset.
  const fences = fenceLines(body);
  // Inside a fence when an odd number of fence lines start before the offset (binary search).
  const inFence = (offset: number) => countBefore(fences, offset) % 2 === 1;
  const found: BodyReference[] = [];
  const linkSpans: Array<[number, number]> = [];
  // Pushed, not mapped from linkSpans: map makes a holey array, and countBefore, also given the fences' packed one,
  // had its compiled code thrown away for the second kind.
  const linkStarts: number[] = [];
  // Links: find "](" and read the target forward; a "[" earlier on the same line makes it a link.
  let lineStart = 0; // start of the line holding i; i only grows, so this moves forward (no rescans of long lines)
  for (let i = body.indexOf("]("); i >= 0; i = body.indexOf("](", i + 2)) {
    for (let nl = body.indexOf("\n", lineStart); nl >= 0 && nl < i; nl = body.indexOf("\n", lineStart)) lineStart = nl + 1;
    const open = body.lastIndexOf("[", i);
    if (open < lineStart || (fences.length && inFence(i))) continue; // [x](y) in code is code, not a link
    let at = i + 2;
    // Reads stay inside the text: a charCodeAt past its end throws away the compiled code of the function.
    while (at < body.length && body.charCodeAt(at) === 0x20) at++;
    let end: number;
    let target: string;
    if (at < body.length && body.charCodeAt(at) === 0x3c /* < */) {
      end = body.indexOf(">", at);
      const nl = body.indexOf("\n", at);
      if (end < 0 || (nl >= 0 && nl < end)) continue;
      target = body.slice(at + 1, end);
      at++;
    } else {
      TARGET_END.lastIndex = at;
      end = TARGET_END.exec(body)?.index ?? body.length;
      target = body.slice(at, end);
    }
    if (!target) continue;
    linkSpans.push([open, end]);
    linkStarts.push(open);
    found.push({ written: target, at });
  }
  // Spans are in order and do not overlap: the only candidate is the last one starting at or before `at`.
  const inLink = (at: number) => {
    const i = countBefore(linkStarts, at) - 1;
    return i >= 0 && at < linkSpans[i]![1];
  };
  // Bare resource paths (scripts/x.py, ./references/a.md, scripts/../../x) in prose and code: a search for each
  // folder name. The string searches are native code, fast from a process's first skill on; a JavaScript loop over
  // every "/" of the body cost more than the three searches until the compiler had warmed it up, which a one-shot
  // `skill validate` of hundreds of skills never lets it finish doing.
  for (const dir of RESOURCE_DIRS) {
    for (let i = body.indexOf(dir); i >= 0; i = body.indexOf(dir, i + 1)) {
      let start = i;
      if (body.startsWith("../", i - 3)) start = i - 3;
      else if (body.startsWith("./", i - 2)) start = i - 2;
      if (start > 0 && !BARE_PREFIX.has(body.charCodeAt(start - 1))) continue;
      BARE_END.lastIndex = i;
      const end = BARE_END.exec(body)?.index ?? body.length;
      if (end === i + dir.length) continue; // "assets/<name>": a placeholder, not a path
      if (!inLink(start)) found.push({ written: body.slice(start, end).replace(TRAILING_PUNCTUATION, ""), at: start });
    }
  }
  // file:// URLs (any case), found from their "://", in order: one starting inside the previous one is part of it.
  let fileUrlEnd = 0; // a file:// URL runs over "<"
  for (let colon = body.indexOf("://"); colon >= 0; colon = body.indexOf("://", colon + 1)) {
    // At the start of the body or after a space, quote or "<".
    const at = colon - 4;
    if (at < 0 || body.slice(at, colon).toLowerCase() !== "file") continue;
    if (at > 0 && (at - 1 < fileUrlEnd || !FILE_URL_PREFIX.test(body[at - 1]!))) continue;
    FILE_URL_END.lastIndex = colon + 3;
    const end = FILE_URL_END.exec(body)?.index ?? body.length;
    if (end === colon + 3) continue; // "file://" alone
    fileUrlEnd = end;
    if (!inLink(at)) found.push({ written: body.slice(at, end).replace(TRAILING_PUNCTUATION, ""), at });
  }
  // The two searches found them by kind; callers go through the body in order.
  return found.length > 1 ? found.sort((a, b) => a.at - b.at) : found;
}

function checkReferences(
  body: string,
  bodyStartLine: number,
  rules: RuleSet,
  diagnostics: Diagnostic[],
  fileExists?: FileLookup,
) {
  const found = referencesIn(body);
  if (found.length === 0) return;
  const checked = new Set<string>();
  const resolvedByText = new Map<string, RelativePath | null>();
  let reported = 0;
  let line = bodyStartLine;
  let lineStart = 0;
  // Positions only for references that get a diagnostic; `found` is sorted, so the line count only moves forward.
  const rangeAt = (at: number, length: number) => {
    for (let nl = body.indexOf("\n", lineStart); nl >= 0 && nl < at; nl = body.indexOf("\n", lineStart)) {
      line++;
      lineStart = nl + 1;
    }
    const column = at - lineStart + 1;
    return { line, column, endLine: line, endColumn: column + length };
  };
  for (const { written, at } of found) {
    if (reported >= MAX_REFERENCE_DIAGNOSTICS) return;
    let resolved = resolvedByText.get(written);
    if (resolved === undefined) {
      const target = stripFragment(written);
      resolved = target ? resolveInsideSkill(target) : null;
      resolvedByText.set(written, resolved);
    }
    if (!resolved) continue;
    if (!resolved.ok) {
      if (resolved.reason === "url" || resolved.reason === "empty") continue;
      reported++;
      diagnostics.push(
        diag(
          rules === "spec" ? "warning" : "error",
          "body.path-escape",
          `"${written}" points outside the skill folder (${resolved.reason === "absolute" ? "absolute path" : "../ leaves the folder"}): ` +
            "a skill may only reference its own files, with paths relative to SKILL.md such as references/guide.md.",
          rangeAt(at, written.length),
        ),
      );
      continue;
    }
    // One lookup, and at most one warning, per file: at its first mention.
    if (!fileExists || checked.has(resolved.path)) continue;
    checked.add(resolved.path);
    if (PLACEHOLDER.test(resolved.path)) continue;
    const found = fileExists(resolved.path);
    if (found === true) continue;
    reported++;
    if (found === "outside") {
      // Written inside, but a link on the way leads out: as much an escape as ../, and the one an agent would follow.
      diagnostics.push(
        diag(
          rules === "spec" ? "warning" : "error",
          "body.path-escape",
          `"${resolved.path}" is a symbolic link (or lies under one) that leads outside the skill folder: a skill must not make an agent ` +
            "read outside its folder. Put the file itself in the skill, or remove the reference.",
          rangeAt(at, written.length),
        ),
      );
    } else if (found === "unreadable") {
      diagnostics.push(
        diag(
          "warning",
          "body.unreadable-reference",
          `"${resolved.path}" is referenced but cannot be read: a folder on its path denies access. Give read and search permission on it.`,
          rangeAt(at, written.length),
        ),
      );
    } else {
      diagnostics.push(
        diag("warning", "body.missing-reference", `"${resolved.path}" is referenced but does not exist in the skill folder.`, rangeAt(at, written.length)),
      );
    }
  }
}

/** How many of the sorted offsets are <= offset. */
function countBefore(sorted: number[], offset: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Drops #fragment and ?query and decodes %-escapes, as a Markdown renderer would before opening the file. */
export function stripFragment(target: string): string {
  if (target.startsWith("#")) return "";
  let t = target;
  const hash = t.indexOf("#");
  if (hash >= 0) t = t.slice(0, hash);
  const query = t.indexOf("?");
  if (query >= 0) t = t.slice(0, query);
  if (t.includes("%")) {
    try {
      t = decodeURIComponent(t);
    } catch {
      // keep the text as written
    }
  }
  return t;
}
