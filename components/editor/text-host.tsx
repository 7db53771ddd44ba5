"use client";
// The open file's text: Monaco, uncontrolled (it owns the text while typing, hooks/use-skill-buffers.ts), in a host
// that keeps a usable height when the editor's columns stack, and how a keyboard leaves it.
import Editor, { type OnMount } from "@monaco-editor/react";
import { EDITOR_OPTIONS } from "./editor-options";
import type { Buf } from "./hooks/use-skill-buffers";

export function TextHost(props: { buf: Buf | undefined; path: string; uri: string; theme: string; canWrite: boolean; onMount: OnMount; onChange: (text: string) => void }) {
  const { buf } = props;
  return (
    <>
      <div className="min-h-[24rem] flex-1 overflow-hidden rounded border border-zinc-200 lg:min-h-0 dark:border-zinc-800" data-testid="monaco-host">
        {buf ? (
          <Editor
            height="100%"
            path={props.uri}
            language={buf.language}
            defaultValue={buf.text}
            theme={props.theme}
            onMount={props.onMount}
            onChange={(v) => props.onChange(v ?? "")}
            options={{ ...EDITOR_OPTIONS, readOnly: !props.canWrite }}
          />
        ) : (
          <p className="muted p-3 text-sm">Loading {props.path}…</p>
        )}
      </div>
      {/* Tab indents inside the editor, so a keyboard alone cannot leave it without Monaco's own toggle. */}
      <p className="muted text-xs" data-testid="editor-keys">
        Tab indents. To leave the text with the keyboard, press Ctrl+M (Ctrl+Shift+M on a Mac): Tab then moves focus, until the same keys again.
      </p>
    </>
  );
}
