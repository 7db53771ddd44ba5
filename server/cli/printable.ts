// Text from elsewhere (a console's answer, a file) printed to a terminal: control characters in it could clear
// the screen, recolour it, forge lines or reorder what follows (bidi overrides). They are shown as \uXXXX instead.

/** C0 (tab and newline included), DEL, C1, the line and paragraph separators, the bidi embeddings and isolates. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** A control character as the six characters of its \uXXXX escape. */
const written = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** `text` with every terminal control character written out as \uXXXX, so it stays one visible, inert line. */
export function printable(text: string): string {
  return text.replace(CONTROL, written);
}

/** C0 but tab and newline, and the rest of CONTROL: for text whose lines are its own (a model's answer, a tool's output). */
const CONTROL_IN_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** printable() for text of several lines: line breaks and tabs stay, every other control character is written out. */
export function printableLines(text: string): string {
  return text.replace(CONTROL_IN_LINES, written);
}
