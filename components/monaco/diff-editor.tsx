"use client";
// @monaco-editor/react's DiffEditor, unmounted without a page error (issue 41 item 6). Left to itself it disposes
// both text models before the diff widget, and Monaco throws "TextModel got disposed before DiffEditorWidget model
// got reset" (leaving a comparison, restoring a version with one open, leaving Layers). Here the library keeps the
// models; once the widget is gone (the same commit), the models no other editor shows are disposed.
import { DiffEditor as LibraryDiffEditor, type DiffEditorProps, type DiffOnMount, type Monaco } from "@monaco-editor/react";
import { useEffect, useRef } from "react";

type Models = ReturnType<Parameters<DiffOnMount>[0]["getModel"]>;

export function DiffEditor(props: Omit<DiffEditorProps, "keepCurrentOriginalModel" | "keepCurrentModifiedModel">) {
  const { onMount } = props;
  const shown = useRef<{ monaco: Monaco; models: Models[] } | null>(null);
  useEffect(
    () => () => {
      const s = shown.current;
      if (!s) return;
      setTimeout(() => {
        const inUse = new Set((s.monaco.editor.getEditors() as { getModel(): unknown }[]).map((e) => e.getModel()));
        for (const m of s.models.flatMap((pair) => (pair ? [pair.original, pair.modified] : []))) {
          if (!m.isDisposed() && !inUse.has(m)) m.dispose();
        }
      });
    },
    [],
  );
  const mount: DiffOnMount = (editor, monaco) => {
    const s = { monaco, models: [editor.getModel()] };
    shown.current = s;
    // A path change gives the widget other models; every one it showed is ours to dispose at the end.
    editor.onDidChangeModel(() => s.models.push(editor.getModel()));
    onMount?.(editor, monaco);
  };
  return <LibraryDiffEditor {...props} keepCurrentOriginalModel keepCurrentModifiedModel onMount={mount} />;
}
