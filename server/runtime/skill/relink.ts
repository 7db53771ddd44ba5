// After a file or folder of a skill is renamed: the references in SKILL.md's body that pointed at the old path,
// rewritten to the new one. The same reading of the body as the validator's (referencesIn), so what it calls a
// missing reference after the rename is exactly what this offers to fix. Line endings, a "./" prefix and a
// #fragment are kept as written.
import { referencesIn, stripFragment } from "./body";
import { frontmatterBounds } from "./frontmatter-bounds";
import { resolveInsideSkill } from "./paths";

export interface Relinked {
  text: string;
  /** References rewritten (0: `text` is the input). */
  count: number;
}

/** Characters a Markdown link target cannot hold unescaped (outside <...>). */
const UNSAFE_IN_TARGET = /[\s()<>]/g;

/** SKILL.md's `text` with every body reference to `from` (a file, or a folder and what is in it) pointing at `to`. */
export function relinkSkillText(text: string, from: string, to: string): Relinked {
  // Read as the validator reads it (parse.ts): no BOM, CRLF and a bare CR as LF.
  const norm = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n?/g, "\n");
  const bounds = frontmatterBounds(norm);
  if (bounds.kind !== "closed") return { text, count: 0 };
  const { bodyStart } = bounds;
  const body = norm.slice(bodyStart);
  const edits: { start: number; end: number; text: string }[] = [];
  for (const ref of referencesIn(body)) {
    const resolved = resolveInsideSkill(stripFragment(ref.written));
    if (!resolved.ok) continue;
    const p = resolved.path;
    if (p !== from && !p.startsWith(from + "/")) continue;
    let target = to + p.slice(from.length);
    const inAngles = body.charCodeAt(ref.at - 1) === 0x3c; /* < */
    const inLink = inAngles || body.charCodeAt(ref.at - 1) === 0x28; /* ( */
    if (inLink && !inAngles) target = target.replace(UNSAFE_IN_TARGET, percentEncoded);
    const prefix = ref.written.startsWith("./") ? "./" : "";
    const cut = ref.written.search(/[#?]/);
    const suffix = cut > 0 ? ref.written.slice(cut) : "";
    edits.push({ start: bodyStart + ref.at, end: bodyStart + ref.at + ref.written.length, text: prefix + target + suffix });
  }
  if (edits.length === 0) return { text, count: 0 };
  const at = originalOffsets(text, edits.flatMap((e) => [e.start, e.end]));
  let out = "";
  let last = 0;
  edits.forEach((e, i) => {
    out += text.slice(last, at[2 * i]) + e.text;
    last = at[2 * i + 1]!;
  });
  return { text: out + text.slice(last), count: edits.length };
}

const percentEncoded = (c: string) => (c.charCodeAt(0) < 0x80 ? "%" + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0") : encodeURIComponent(c));

/**
 * Where offsets of the parsed text (BOM dropped, CRLF and bare CR read as LF) fall in the text as written.
 * `offsets` ascend; references hold no line break, so each edit maps to one span of the original.
 */
function originalOffsets(text: string, offsets: number[]): number[] {
  const out: number[] = [];
  let orig = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let norm = 0;
  for (const target of offsets) {
    while (norm < target && orig < text.length) {
      orig += text.charCodeAt(orig) === 0x0d && text.charCodeAt(orig + 1) === 0x0a ? 2 : 1;
      norm++;
    }
    out.push(orig);
  }
  return out;
}
