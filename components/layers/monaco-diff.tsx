"use client";
// Monaco's diff editor from the local monaco-editor package (never a CDN): loaded only in the browser, through
// next/dynamic with ssr:false (see diff-view.tsx), per STACK.md A3.
import { loader } from "@monaco-editor/react";
import { DiffEditor } from "../monaco/diff-editor";
import * as monaco from "monaco-editor/editor";
import "monaco-editor/features/register.all";
import "monaco-editor/languages/definitions/markdown/register";
import "monaco-editor/languages/definitions/yaml/register";

const g = self as unknown as { MonacoEnvironment?: { getWorker: () => Worker } };
g.MonacoEnvironment ??= {
  getWorker: () => new Worker(new URL("monaco-editor/editor/editor.worker.js", import.meta.url), { type: "module" }),
};
loader.config({ monaco });

// automaticLayout: the library creates the widget in a container it hides until the widget is ready, and without it
// Monaco measures that width once; a later size (the container shown, a narrower window) would then keep the wrap it
// computed, down to a character per line (#41 item 6).
export default function MonacoDiff({ original, modified, dark }: { original: string; modified: string; dark: boolean }) {
  return (
    <DiffEditor
      height="420px"
      language="markdown"
      original={original}
      modified={modified}
      theme={dark ? "vs-dark" : "vs"}
      options={{ readOnly: true, originalEditable: false, renderSideBySide: true, minimap: { enabled: false }, wordWrap: "on", scrollBeyondLastLine: false, automaticLayout: true }}
    />
  );
}
