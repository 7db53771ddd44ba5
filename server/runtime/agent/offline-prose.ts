// The steps a skill's prose spells out, beyond its shell blocks: a command in inline code ("run `curl -s
// wttr.in/Oslo`"), a file to write ("use the Write tool to save it to forecast.txt") and a file of the skill to read
// ("read reference.md"). Commands and writes are read the way the doctor reads them (../doctor/tools.ts
// `bodyUse`), so what the doctor says the body does is what the offline provider does, and a refusal the doctor
// predicts is met in a run. One pass over the body; every pattern has bounded repetition.
import { bodyUse } from "../doctor/tools";
import { terms } from "../search/text";
import { inScriptFolder } from "../../domain/skill-protocol";

export interface ProseStep {
  /** Offset in the body, to keep the body's order with the other steps. */
  at: number;
  kind: "bash" | "write" | "read";
  /** The command (bash) or the path (write, read). */
  text: string;
  /** The instruction it comes from: a write's line (its content falls back on it), a command's own text. */
  line: string;
}

/** A run of one of the skill's scripts: left to the inline-script rule, which checks the skill holds it. */
const SCRIPT_RUN = /^(?:(?:python3?|bash|sh|node|tsx|uv run|uvx)\s+)?(?:\.\/)?(?:\{base_path\}\/)?scripts\//;
/**
 * A relative file name with an extension, as prose names one (`forecast.txt`, references/api.md). Tested on one
 * token at a time (split at spaces, quotes and brackets), anchored, so no line is scanned more than once.
 */
const FILE_NAME = /^(?:\{base_path\}\/)?(?:\.\/)?[A-Za-z0-9_][\w-]*(?:[./][\w-]+)*\.[A-Za-z][A-Za-z0-9]{0,7}$/;
const READABLE = /\.(?:md|markdown|txt|json|ya?ml|csv|xml|html?)$/i;
/** A verb that asks for a read, a few words before the file name ("read", "see the guide in", "open"). */
const READ_VERB = /\b(?:read|open|consult|load|see)\b[^.`]{0,40}[`"']?$/i;
const TOKEN_MAX = 300;
const WRITE_TARGET = /\b(?:to|into|as|named|called)\s+[`"']?$/i;
/** A condition in the sentence before the verb: the step is for some requests only. */
const CONDITION = /\b(?:if|when|whenever|for|in case)\b/i;
const DEFAULT_WRITE = "notes.md";

function lineStarts(body: string): number[] {
  const starts = [0];
  for (let i = body.indexOf("\n"); i >= 0; i = body.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** The file names a line mentions, with their offsets: one pass over the line. */
function fileNames(line: string): { name: string; at: number }[] {
  const out: { name: string; at: number }[] = [];
  for (const m of line.matchAll(/[^\s`"'()[\]<>,;]+/g)) {
    if (m[0].length > TOKEN_MAX) continue;
    const token = m[0].replace(/[.:!?]+$/, "");
    if (FILE_NAME.test(token) && !token.split("/").includes("..")) out.push({ name: token, at: m.index });
  }
  return out;
}

const plainPath = (p: string) => p.replace(/^\{base_path\}\//, "").replace(/^\.\//, "");

/**
 * The prose steps of a body, in its order. `isFile` says which paths are files of the skill (by real path): only
 * those are read, and without it nothing is. A read under a condition ("if you need to fill a form, read
 * forms.md") is taken when the condition or the file's name shares a word with the request; `SKILL.md` itself and
 * scripts are never read.
 */
export function proseSteps(body: string, request: string, isFile?: (rel: string) => boolean): ProseStep[] {
  const starts = lineStarts(body);
  const lines = body.split("\n");
  const use = bodyUse(body, 1);
  const out: ProseStep[] = [];
  // A line's commands come in its order: each is looked for after the one before (a line of 50,000 spans is read once).
  let cursor = { line: 0, at: 0 };
  for (const c of use.commands) {
    if (!c.inline) continue;
    const text = lines[c.line - 1]!;
    const from = cursor.line === c.line ? cursor.at : 0;
    const i = text.indexOf(c.text, from);
    cursor = { line: c.line, at: i >= 0 ? i + c.text.length : from };
    if (SCRIPT_RUN.test(c.text)) continue;
    out.push({ at: starts[c.line - 1]! + Math.max(0, i), kind: "bash", text: c.text.replace(/\{base_path\}\//g, ""), line: c.text });
  }
  for (const n of use.writes) {
    const text = lines[n - 1]!;
    const clean = text.replace(/https?:\/\/\S+/g, " ");
    const names = fileNames(clean);
    // "Read input.csv and save the summary to report.md": the file written is the one the write goes to.
    const named = (names.find((f) => WRITE_TARGET.test(clean.slice(Math.max(0, f.at - 16), f.at))) ?? names[0])?.name;
    const target = named ? plainPath(named) : DEFAULT_WRITE;
    out.push({ at: starts[n - 1]!, kind: "write", text: target, line: text.trim() });
  }
  if (isFile) out.push(...reads(lines, starts, fencedLines(lines), request, isFile));
  return out.sort((a, b) => a.at - b.at);
}

/** Which lines are inside a fenced block (``` or ~~~), as the doctor's reading tells fences apart. */
function fencedLines(lines: string[]): boolean[] {
  const inside: boolean[] = [];
  let marker: string | null = null;
  for (const l of lines) {
    const f = /^\s{0,3}(`{3,}|~{3,})\s*([\w+-]*)/.exec(l);
    if (marker) {
      inside.push(true);
      if (f && f[1]!.startsWith(marker) && !f[2]) marker = null;
    } else {
      inside.push(Boolean(f));
      if (f) marker = f[1]!;
    }
  }
  return inside;
}

function reads(lines: string[], starts: number[], fenced: boolean[], request: string, isFile: (rel: string) => boolean): ProseStep[] {
  const wanted = new Set(terms(request));
  const out: ProseStep[] = [];
  const seen = new Set<string>();
  // Asked once per path: a long body names the same file many times.
  const known = new Map<string, boolean>();
  const fileOfSkill = (rel: string) => known.get(rel) ?? (known.set(rel, isFile(rel)), known.get(rel)!);
  lines.forEach((text, i) => {
    if (fenced[i]) return;
    for (const f of fileNames(text)) {
      const rel = plainPath(f.name);
      if (!READABLE.test(rel) || !READ_VERB.test(text.slice(Math.max(0, f.at - 60), f.at))) continue;
      if (seen.has(rel) || /(^|\/)SKILL\.md$/i.test(rel) || inScriptFolder(rel) || !fileOfSkill(rel)) continue;
      const sentence = text.slice(Math.max(0, f.at - 300), f.at).split(/[.!?;]\s/).pop() ?? "";
      if (CONDITION.test(sentence)) {
        const named = [...terms(sentence), ...terms(rel.replace(/\.[a-z0-9]+$/i, "").replace(/[-_/]/g, " "))];
        if (!named.some((t) => wanted.has(t))) continue;
      }
      seen.add(rel);
      out.push({ at: starts[i]! + f.at, kind: "read", text: rel, line: text.trim() });
    }
  });
  return out;
}
