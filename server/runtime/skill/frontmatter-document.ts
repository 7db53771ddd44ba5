// Editing a SKILL.md's frontmatter field by field without touching anything else: the YAML is edited as a
// document (comments, key order, quoting and unknown keys of the other fields kept), the body is kept byte for
// byte, and CRLF files stay CRLF. The editor's Details form and the description suggestion both write through
// here, so this file stays pure (no node: imports): the browser imports it.
import { isMap, isScalar, isSeq, parseDocument, type Document, type Pair, type YAMLMap, type YAMLSeq } from "yaml";

export class FrontmatterError extends Error {}

/** A field's new value: text, a list of words, key/value rows (metadata); null, "" or [] remove the field. */
export type FieldValue = string | readonly string[] | readonly (readonly [string, string])[] | null;

interface Parts {
  head: string;
  yaml: string;
  tail: string;
  nl: string;
}

function split(text: string): Parts | null {
  const nl = text.includes("\r\n") ? "\r\n" : "\n";
  const open = /^---[ \t]*\r?\n/.exec(text);
  if (!open) return null;
  const start = open[0].length;
  // The first --- after the opening one ends the frontmatter, as skills-ref reads it (parse.ts).
  const close = text.indexOf("---", start);
  if (close < 0) return null;
  return { head: text.slice(0, start), yaml: text.slice(start, close), tail: text.slice(close), nl };
}

// Scalars are strings, as the validator reads them (failsafe), so "5" or "true" are written without quotes.
const parse = (yaml: string) => parseDocument(yaml, { schema: "failsafe" });

export type FrontmatterRead =
  | { ok: true; data: Record<string, unknown>; keys: string[] }
  | { ok: false; error: string; missing: boolean };

/** The frontmatter as plain values (scalars as strings), or why it cannot be edited as a form. */
export function readFrontmatter(text: string): FrontmatterRead {
  const parts = split(text);
  if (!parts) return { ok: false, missing: true, error: "SKILL.md has no frontmatter yet." };
  const doc = parse(parts.yaml);
  if (doc.errors.length) return { ok: false, missing: false, error: `The frontmatter is not valid YAML: ${doc.errors[0]!.message.split("\n")[0]}` };
  const data: unknown = doc.toJS({ maxAliasCount: 100 });
  if (data === null || data === undefined) return { ok: true, data: {}, keys: [] };
  if (typeof data !== "object" || Array.isArray(data)) return { ok: false, missing: false, error: "The frontmatter is not a mapping of fields." };
  return { ok: true, data: data as Record<string, unknown>, keys: Object.keys(data) };
}

const REQUIRED = new Set(["name", "description"]);
const isEmpty = (v: FieldValue) => v === null || v === "" || (Array.isArray(v) && v.length === 0);
const isRows = (v: readonly unknown[]): v is readonly (readonly [string, string])[] => v.some((x) => Array.isArray(x));

/** Words in place: item by item, so the list keeps its style (flow or block) and the comments on it. */
function setSeq(doc: Document, seq: YAMLSeq, words: readonly string[]) {
  seq.items.length = Math.min(seq.items.length, words.length);
  words.forEach((w, i) => {
    const item = seq.items[i];
    if (isScalar(item)) item.value = w;
    else seq.items[i] = doc.createNode(w);
  });
}

/** Rows in place: kept keys keep their place and comments, removed ones go, new ones are added at the end. */
function setRows(doc: Document, map: YAMLMap, rows: readonly (readonly [string, string])[]) {
  const wanted = new Map(rows.map(([k, v]) => [k, v]));
  map.items = map.items.filter((p: Pair) => wanted.has(String(isScalar(p.key) ? p.key.value : p.key)));
  for (const [k, v] of wanted) map.set(doc.createNode(k), v);
}

/** Words that an existing text value (allowed-tools: Read Bash(git:*), tags: a, b) holds, rejoined its way. */
const joinLike = (old: string, words: readonly string[]) => words.join(old.includes(",") ? ", " : " ");

function setValue(doc: Document, path: readonly string[], value: FieldValue) {
  const node = doc.getIn(path, true);
  // Required fields cleared in the form stay in their place as "" (the validator says what is missing).
  if (isEmpty(value) && !(value === "" && path.length === 1 && REQUIRED.has(path[0]!))) {
    doc.deleteIn(path);
    // A mapping left empty by the form (scope, hooks, metadata) goes too, rather than staying as `scope: {}`.
    for (let n = path.length - 1; n > 0; n--) {
      const parent = doc.getIn(path.slice(0, n), true);
      if (isMap(parent) && parent.items.length === 0) doc.deleteIn(path.slice(0, n));
    }
    return;
  }
  if (typeof value === "string") {
    // Quotes that emptiness or a space at the edge forced (typed in the form: "Fills forms ") go once they are not needed.
    if (isScalar(node) && node.type?.startsWith("QUOTE") && /^\s|\s$|^$/.test(String(node.value)) && !/^\s|\s$/.test(value)) node.type = undefined;
    return doc.setIn(path, value);
  }
  if (value === null) return;
  if (isRows(value)) {
    if (isMap(node)) return setRows(doc, node, value);
    return doc.setIn(path, doc.createNode(Object.fromEntries(value)));
  }
  const words = value as readonly string[];
  if (isSeq(node)) return setSeq(doc, node, words);
  if (isScalar(node) && typeof node.value === "string") return doc.setIn(path, joinLike(node.value, words));
  // New lists: allowed-tools as the spec writes it (one line of words), the others as a one-line YAML list.
  if (path[path.length - 1] === "allowed-tools") return doc.setIn(path, words.join(" "));
  const seq = doc.createNode([...words]) as YAMLSeq;
  seq.flow = true;
  doc.setIn(path, seq);
}

// One-line lists stay as authors write them ([a, b]); long values are never folded.
const render = (doc: Document) =>
  doc.contents === null || (isMap(doc.contents) && doc.contents.items.length === 0 && !doc.commentBefore && !doc.comment)
    ? ""
    : doc.toString({ lineWidth: 0, flowCollectionPadding: false });

/**
 * The text with each field set (a path like ["scope", "agents"] reaches into a mapping). Unchanged values leave
 * the text as it was; a file without frontmatter gets one. Throws FrontmatterError when the frontmatter cannot be
 * edited safely (broken YAML, not a mapping, or a value that would end it early).
 */
export function setFrontmatterFields(text: string, edits: readonly { path: readonly string[]; value: FieldValue }[]): string {
  const parts = split(text) ?? { head: "---\n", yaml: "", tail: `---\n${text}`, nl: text.includes("\r\n") ? "\r\n" : "\n" };
  if (parts.nl === "\r\n" && !split(text)) {
    parts.head = "---\r\n";
    parts.tail = `---\r\n${text}`;
  }
  const doc = parse(parts.yaml);
  if (doc.errors.length) throw new FrontmatterError(`The frontmatter is not valid YAML: ${doc.errors[0]!.message.split("\n")[0]}`);
  if (doc.contents !== null && !isMap(doc.contents)) throw new FrontmatterError("The frontmatter is not a mapping of fields.");
  const before = render(doc);
  try {
    for (const e of edits) setValue(doc, e.path, e.value);
  } catch (e) {
    throw new FrontmatterError(`Cannot set ${edits.map((x) => x.path.join(".")).join(", ")}: ${e instanceof Error ? e.message : String(e)}`);
  }
  let out = render(doc);
  if (out === before && split(text)) return text;
  if (out.includes("---")) throw new FrontmatterError("A value cannot contain ---: it would end the frontmatter there.");
  if (parts.nl === "\r\n") out = out.replace(/\r?\n/g, "\r\n");
  if (out && !out.endsWith(parts.nl)) out += parts.nl;
  return parts.head + out + parts.tail;
}

/** One field: `setFrontmatterFields(text, [{ path: [field], value }])`. */
export function setFrontmatterField(text: string, field: string, value: FieldValue): string {
  return setFrontmatterFields(text, [{ path: [field], value }]);
}
