// Checks on the Markdown body: its length, and every file it points at (links, and scripts/ references/ assets/
// paths written in prose or code). A path that leaves the skill folder cannot work (the tools refuse it) and may
// be an attempt to make an agent read something it should not.
import type { Diagnostic, RuleSet } from "./types";
import { diag } from "./diagnostics";
import { resolveInsideSkill } from "./paths";

export const MAX_BODY_LINES = 500;
/** The spec's advisory budget: ~5000 tokens, which it equates to ~20,000 characters. */
export const ADVISORY_BODY_CHARS = 20_000;
const MAX_REFERENCE_DIAGNOSTICS = 50;

const MAY_REFERENCE = /\]\(|(?:scripts|references|assets)[\\/]|file:/i;
const LINK = /!?\[[^\]\n]*\]\(\s*(<[^>\n]*>|[^)\s]+)(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?\s*\)/g;
const BARE_RESOURCE = /(?:^|[\s`'"=])((?:\.\.?\/)?(?:scripts|references|assets)\/[^\s`'"()[\]<>|]+)/gm;
const FILE_URL = /(?:^|[\s`'"<])(file:\/\/[^\s`'")>]+)/gim;
const FENCE = /^ {0,3}(?:```|~~~)/gm;
/** Globs and template placeholders describe a kind of file, not one that must exist. */
const PLACEHOLDER = /[*?<>{}$]|\.\.\./;

export function checkBody(
  body: string,
  bodyStartLine: number,
  rules: RuleSet,
  diagnostics: Diagnostic[],
  fileExists?: (relPath: string) => boolean,
): void {
  const lineCount = countLines(body);
  if (lineCount > MAX_BODY_LINES) {
    const line = bodyStartLine + MAX_BODY_LINES;
    diagnostics.push(
      diag(
        "warning",
        "body.too-long",
        `The body has ${lineCount} lines; keep it under ${MAX_BODY_LINES} and move detail into references/ files linked from it.`,
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
  if (MAY_REFERENCE.test(body)) checkReferences(body, bodyStartLine, rules, diagnostics, fileExists);
}

function countLines(body: string): number {
  if (body === "") return 0;
  let n = 1;
  for (let i = body.indexOf("\n"); i >= 0; i = body.indexOf("\n", i + 1)) if (i < body.length - 1) n++;
  return n;
}

function checkReferences(
  body: string,
  bodyStartLine: number,
  rules: RuleSet,
  diagnostics: Diagnostic[],
  fileExists?: (relPath: string) => boolean,
) {
  // Whole-body regex passes, not a per-line loop: most lines mention no file, and the registry checks
  // thousands of bodies. Fenced code blocks are tracked by offset.
  const fences: number[] = [];
  FENCE.lastIndex = 0;
  for (let m = FENCE.exec(body); m; m = FENCE.exec(body)) fences.push(m.index);
  const inFence = (offset: number) => {
    let n = 0;
    for (const f of fences) {
      if (f > offset) break;
      n++;
    }
    return n % 2 === 1;
  };
  const found: Array<{ written: string; at: number }> = [];
  const linkSpans: Array<[number, number]> = [];
  LINK.lastIndex = 0;
  for (let m = LINK.exec(body); m; m = LINK.exec(body)) {
    if (fences.length && inFence(m.index)) continue; // [x](y) in code is code, not a link
    let target = m[1]!;
    const at = m.index + m[0].indexOf(target, m[0].indexOf("]("));
    if (target.startsWith("<")) target = target.slice(1, -1);
    linkSpans.push([m.index, m.index + m[0].length]);
    found.push({ written: target, at });
  }
  const inLink = (at: number) => linkSpans.some(([a, b]) => at >= a && at < b);
  for (const re of [BARE_RESOURCE, FILE_URL]) {
    re.lastIndex = 0;
    for (let m = re.exec(body); m; m = re.exec(body)) {
      const at = m.index + m[0].length - m[1]!.length;
      if (!inLink(at)) found.push({ written: m[1]!.replace(/[.,;:!?]+$/, ""), at });
    }
  }
  if (found.length === 0) return;
  found.sort((a, b) => a.at - b.at);

  const exists = new Map<string, boolean>();
  let reported = 0;
  let line = bodyStartLine;
  let lineStart = 0;
  for (const { written, at } of found) {
    if (reported >= MAX_REFERENCE_DIAGNOSTICS) return;
    for (let nl = body.indexOf("\n", lineStart); nl >= 0 && nl < at; nl = body.indexOf("\n", lineStart)) {
      line++;
      lineStart = nl + 1;
    }
    const column = at - lineStart + 1;
    const target = stripFragment(written);
    if (!target) continue;
    const resolved = resolveInsideSkill(target);
    const range = { line, column, endLine: line, endColumn: column + written.length };
    if (!resolved.ok) {
      if (resolved.reason === "url" || resolved.reason === "empty") continue;
      reported++;
      diagnostics.push(
        diag(
          rules === "spec" ? "warning" : "error",
          "body.path-escape",
          `"${written}" points outside the skill folder (${resolved.reason === "absolute" ? "absolute path" : "../ leaves the folder"}): ` +
            "a skill may only reference its own files, with paths relative to SKILL.md such as references/guide.md.",
          range,
        ),
      );
      continue;
    }
    if (!fileExists || PLACEHOLDER.test(target) || exists.has(resolved.path)) continue;
    const ok = fileExists(resolved.path);
    exists.set(resolved.path, true); // one warning per missing file, at its first mention
    if (!ok) {
      reported++;
      diagnostics.push(
        diag("warning", "body.missing-reference", `"${resolved.path}" is referenced but does not exist in the skill folder.`, range),
      );
    }
  }
}

/** Drops #fragment and ?query and decodes %-escapes, as a Markdown renderer would before opening the file. */
function stripFragment(target: string): string {
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
