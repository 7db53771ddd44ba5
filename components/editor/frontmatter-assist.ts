// Where the cursor is in a SKILL.md frontmatter, and what to offer there. Pure text logic (no Monaco), so the
// completion and hover providers stay thin and this part is unit-tested.
import type { FieldDoc } from "~/server/runtime/skill/fields";
import type { Vocabulary } from "./types";

/** 1-based line numbers of the frontmatter's content (between the --- lines), or null when there is none. */
export function frontmatterRange(lines: string[]): { start: number; end: number } | null {
  if ((lines[0] ?? "").replace(/^\uFEFF/, "").trimEnd() !== "---") return null;
  for (let i = 1; i < lines.length; i++) {
    if (lines[i]!.trimEnd() === "---") return { start: 2, end: i };
  }
  return { start: 2, end: lines.length }; // unclosed: still help while typing
}

export type CursorContext =
  | { kind: "key"; parent: string | null; prefix: string }
  | { kind: "value"; field: string; prefix: string }
  | { kind: "list-item"; field: string; prefix: string }
  | { kind: "none" };

/** The top-level key that owns a line (the nearest line above, at column 0, with "key:"). */
function ownerKey(lines: string[], lineNo: number, startLine: number): string | null {
  for (let i = lineNo - 1; i >= startLine; i--) {
    const m = /^([A-Za-z0-9_-]+)\s*:/.exec(lines[i - 1]!);
    if (m) return m[1]!;
  }
  return null;
}

/** What the cursor (1-based line, column) is on, inside the frontmatter. */
export function cursorContext(lines: string[], line: number, column: number): CursorContext {
  const fm = frontmatterRange(lines);
  if (!fm || line < fm.start || line > fm.end) return { kind: "none" };
  const text = (lines[line - 1] ?? "").slice(0, column - 1);
  const indented = /^\s+/.test(text);
  const keyValue = /^(\s*)([A-Za-z0-9_-]+)\s*:\s*(.*)$/.exec(text);
  if (keyValue) {
    const field = indented ? `${ownerKey(lines, line, fm.start) ?? ""}.${keyValue[2]}` : keyValue[2]!;
    // allowed-tools: Read Bash(git:*) Wr|  -> the word being typed
    const prefix = keyValue[3]!.split(/[\s,]+/).pop() ?? "";
    return { kind: "value", field, prefix };
  }
  const item = /^\s*-\s*(\S*)$/.exec(text);
  if (item) return { kind: "list-item", field: ownerKey(lines, line, fm.start) ?? "", prefix: item[1]! };
  const key = /^(\s*)([A-Za-z0-9_-]*)$/.exec(text);
  if (key) return { kind: "key", parent: indented ? ownerKey(lines, line, fm.start) : null, prefix: key[2]! };
  return { kind: "none" };
}

export interface Suggestion {
  label: string;
  insertText: string;
  detail: string;
  documentation: string;
  kind: "field" | "value" | "tool";
}

const fieldDoc = (f: FieldDoc) =>
  `**${f.name}** (${f.kind}${f.origin ? `, ${f.origin}` : ""}; ${f.type}${f.required ? ", required" : ""})\n\n${f.description}` +
  (f.values ? `\n\nValues: ${f.values.join(", ")}` : "");

/** Completion items for a cursor context. Keys already present at the same level are not offered again. */
export function suggestionsFor(ctx: CursorContext, vocab: Vocabulary, lines: string[]): Suggestion[] {
  if (ctx.kind === "key") {
    const pool = ctx.parent ? (vocab.fields.find((f) => f.name === ctx.parent)?.children ?? []) : vocab.fields;
    const fm = frontmatterRange(lines);
    const present = new Set(
      fm ? lines.slice(fm.start - 1, fm.end).map((l) => (ctx.parent ? /^\s+([A-Za-z0-9_-]+)\s*:/ : /^([A-Za-z0-9_-]+)\s*:/).exec(l)?.[1]).filter(Boolean) : [],
    );
    return pool
      .filter((f) => !present.has(f.name))
      .map((f) => ({
        label: f.name,
        insertText: f.children || f.type.startsWith("list") ? `${f.name}:\n  ` : `${f.name}: `,
        detail: `${f.kind} field · ${f.type}`,
        documentation: fieldDoc(f),
        kind: "field" as const,
      }));
  }
  if (ctx.kind === "value" || ctx.kind === "list-item") {
    if (ctx.field === "allowed-tools") {
      return vocab.tools.map((t) => ({ label: t.name, insertText: t.name, detail: t.detail, documentation: t.detail, kind: "tool" as const }));
    }
    const field = vocab.fields.find((f) => f.name === ctx.field);
    const values = ctx.field === "context" ? vocab.contextValues : (field?.values ?? (field?.type === "boolean" ? ["true", "false"] : []));
    return values.map((v) => ({ label: v, insertText: v, detail: `${ctx.field} value`, documentation: field ? fieldDoc(field) : "", kind: "value" as const }));
  }
  return [];
}

/** Hover text for the key under the cursor (1-based line), or null. */
export function hoverFor(lines: string[], line: number, vocab: Vocabulary): string | null {
  const fm = frontmatterRange(lines);
  if (!fm || line < fm.start || line > fm.end) return null;
  const m = /^(\s*)([A-Za-z0-9_-]+)\s*:/.exec(lines[line - 1] ?? "");
  if (!m) return null;
  if (m[1]) {
    const parent = vocab.fields.find((f) => f.name === ownerKey(lines, line, fm.start));
    const child = parent?.children?.find((c) => c.name === m[2]);
    return child ? fieldDoc(child) : null;
  }
  const f = vocab.fields.find((x) => x.name === m[2]);
  return f ? fieldDoc(f) : `**${m[2]}** is not a known field: the spec rules reject it; the omniforge rules warn.`;
}
