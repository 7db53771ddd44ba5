// Changing one frontmatter field of a SKILL.md without touching anything else: the YAML is edited as a document
// (comments, order, quoting of the other fields kept) and the body is kept byte for byte. Used to apply a suggested
// description as a normal save.
import { parseDocument } from "yaml";

export class SetFieldError extends Error {}

/** The text with `field` set to `value` (added at the end of the frontmatter when absent). */
export function setFrontmatterField(text: string, field: string, value: string): string {
  const nl = text.includes("\r\n") ? "\r\n" : "\n";
  const open = /^---[ \t]*\r?\n/.exec(text);
  if (!open) throw new SetFieldError("SKILL.md has no frontmatter (a first line with only ---).");
  const start = open[0].length;
  // The first --- after the opening one ends the frontmatter, as skills-ref reads it (parse.ts).
  const close = text.indexOf("---", start);
  if (close < 0) throw new SetFieldError("The frontmatter is never closed.");
  const yamlText = text.slice(start, close);
  const doc = parseDocument(yamlText, { keepSourceTokens: true });
  if (doc.errors.length) throw new SetFieldError(`The frontmatter is not valid YAML: ${doc.errors[0]!.message}`);
  doc.set(field, value);
  let out = doc.toString({ lineWidth: 0 });
  if (nl === "\r\n") out = out.replace(/\r?\n/g, "\r\n");
  if (!out.endsWith(nl)) out += nl;
  return text.slice(0, start) + out + text.slice(close);
}
