// The text editor's options for skill files.
import type { editor } from "monaco-editor";

export const EDITOR_OPTIONS: editor.IStandaloneEditorConstructionOptions = {
  minimap: { enabled: false },
  wordWrap: "on",
  fontSize: 13,
  automaticLayout: true,
  scrollBeyondLastLine: false,
  quickSuggestions: { other: true, comments: false, strings: true },
  // Enter is a new line, always: a suggestion is taken with Tab or a click (Enter once turned "colour: red" into
  // "Readcon"). Words of the file are not offered; keys and known values are.
  acceptSuggestionOnEnter: "off",
  wordBasedSuggestions: "off",
  fixedOverflowWidgets: true,
};
