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

// The library creates the widget in a container it hides until the widget is ready, so Monaco first sees a width of 0
// (#41 item 6). automaticLayout makes it measure again when the container shows or the window changes; without it
// the wrap computed for no width stays, a character per line. And at width 0 Monaco picks its inline view, which
// turns the left side's wrapping off for good (its option update does not follow the switch back): this view's two
// sides are labelled left and right, so it stays side by side at any width.
export default function MonacoDiff({ original, modified, dark }: { original: string; modified: string; dark: boolean }) {
  return (
    <DiffEditor
      height="420px"
      language="markdown"
      original={original}
      modified={modified}
      theme={dark ? "vs-dark" : "vs"}
      options={{ readOnly: true, originalEditable: false, renderSideBySide: true, minimap: { enabled: false }, wordWrap: "on", scrollBeyondLastLine: false, automaticLayout: true, useInlineViewWhenSpaceIsLimited: false }}
    />
  );
}
