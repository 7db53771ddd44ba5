// Where the frontmatter and the body of a SKILL.md start and end, as the reference reads them: the first line is
// "---" (trailing blanks allowed) and the frontmatter ends at the first "---" after it, wherever that stands. Pure
// string work with no parser, so the editor (in the browser) finds a body exactly as the validator does.

const OPENING_LINE = /^---[ \t]*$/;

export type FrontmatterBounds =
  | { kind: "no-opening"; firstLine: string }
  | { kind: "unclosed" }
  | {
      kind: "closed";
      /** Offset of the frontmatter's first character (after the opening line). */
      fmStart: number;
      /** Offset of the closing "---". */
      closeAt: number;
      /** Offset of the body's first character. */
      bodyStart: number;
      /** The closing "---" shares its line with other text: the body starts right after it, on that line. */
      inline: boolean;
    };

/** `text` with line breaks already read as LF and no BOM (parse.ts does both first). */
export function frontmatterBounds(text: string): FrontmatterBounds {
  const firstBreak = text.indexOf("\n");
  const firstLine = firstBreak < 0 ? text : text.slice(0, firstBreak);
  if (!OPENING_LINE.test(firstLine)) return { kind: "no-opening", firstLine };
  const fmStart = firstBreak < 0 ? text.length : firstBreak + 1;
  const closeAt = firstBreak < 0 ? -1 : text.indexOf("---", fmStart);
  if (closeAt < 0) return { kind: "unclosed" };
  const closeLineStart = text.lastIndexOf("\n", closeAt - 1) + 1;
  const closeLineEnd = text.indexOf("\n", closeAt);
  const restOfLine = text.slice(closeAt + 3, closeLineEnd < 0 ? text.length : closeLineEnd);
  if (closeLineStart === closeAt && restOfLine.trim() === "") {
    return { kind: "closed", fmStart, closeAt, bodyStart: closeLineEnd < 0 ? text.length : closeLineEnd + 1, inline: false };
  }
  return { kind: "closed", fmStart, closeAt, bodyStart: closeAt + 3, inline: true };
}
