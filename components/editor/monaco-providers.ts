// Completion and hover for SKILL.md frontmatter, registered once per page for the markdown language.
// The vocabulary (fields, tool names) comes from the server so it is exactly the validator's list.
import type { Monaco } from "./monaco-setup";
import { cursorContext, hoverFor, suggestionsFor } from "./frontmatter-assist";
import type { Vocabulary } from "./types";

let vocabulary: Vocabulary | null = null;
let registered = false;

export function setVocabulary(v: Vocabulary): void {
  vocabulary = v;
}

const isSkillMd = (uri: { path: string }) => /(^|\/)SKILL\.md$/i.test(uri.path);

export function registerSkillProviders(monaco: Monaco): void {
  if (registered) return;
  registered = true;
  monaco.languages.registerCompletionItemProvider("markdown", {
    triggerCharacters: [":", " ", "-", ","],
    provideCompletionItems(model, position) {
      if (!vocabulary || !isSkillMd(model.uri)) return { suggestions: [] };
      const lines = model.getLinesContent();
      const ctx = cursorContext(lines, position.lineNumber, position.column);
      if (ctx.kind === "none") return { suggestions: [] };
      const word = model.getWordUntilPosition(position);
      const startColumn = ctx.kind === "key" ? position.column - ctx.prefix.length : position.column - ctx.prefix.length;
      const range = { startLineNumber: position.lineNumber, endLineNumber: position.lineNumber, startColumn: Math.min(startColumn, word.startColumn), endColumn: position.column };
      const kinds = { field: monaco.languages.CompletionItemKind.Property, value: monaco.languages.CompletionItemKind.EnumMember, tool: monaco.languages.CompletionItemKind.Function };
      return {
        suggestions: suggestionsFor(ctx, vocabulary, lines).map((s, i) => ({
          label: s.label,
          insertText: s.insertText,
          detail: s.detail,
          documentation: { value: s.documentation },
          kind: kinds[s.kind],
          sortText: String(i).padStart(4, "0"),
          range,
        })),
      };
    },
  });
  monaco.languages.registerHoverProvider("markdown", {
    provideHover(model, position) {
      if (!vocabulary || !isSkillMd(model.uri)) return null;
      const text = hoverFor(model.getLinesContent(), position.lineNumber, vocabulary);
      if (!text) return null;
      const line = model.getLineContent(position.lineNumber);
      const keyEnd = line.indexOf(":") + 1;
      if (keyEnd <= 0 || position.column > keyEnd + 1) return null; // hover on the key, not on a long value
      return { contents: [{ value: text }], range: { startLineNumber: position.lineNumber, endLineNumber: position.lineNumber, startColumn: 1, endColumn: keyEnd + 1 } };
    },
  });
}
