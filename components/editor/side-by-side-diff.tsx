"use client";
// Monaco's diff editor as the editor's views use it (comparison and save conflict): two named in-memory models,
// laid out with the panel, no minimap. Only the right side can be made editable, for resolving a conflict.
import type { DiffOnMount } from "@monaco-editor/react";
import { DiffEditor } from "../monaco/diff-editor";

interface Props {
  original: string;
  modified: string;
  language: string;
  theme: string;
  /** Model URIs of the left and right side; distinct per view so Monaco does not share their buffers. */
  paths: readonly [string, string];
  /** Given, the right side is editable and this receives the editor; otherwise both sides are read only. */
  onMount?: DiffOnMount;
}

export function SideBySideDiff({ original, modified, language, theme, paths, onMount }: Props) {
  const access = onMount ? { renderSideBySide: true, originalEditable: false } : { readOnly: true };
  return (
    <DiffEditor
      height="100%"
      original={original}
      modified={modified}
      language={language}
      theme={theme}
      originalModelPath={paths[0]}
      modifiedModelPath={paths[1]}
      options={{ ...access, automaticLayout: true, minimap: { enabled: false } }}
      onMount={onMount}
    />
  );
}
