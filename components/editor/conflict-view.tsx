"use client";
// Shown instead of the editor when a save found the file changed on disk: theirs on the left, yours (editable)
// on the right, the unified diff, and the three ways out.
import type { MutableRefObject } from "react";
import type { Conflict, ConflictEditor } from "./hooks/use-save";
import { SideBySideDiff } from "./side-by-side-diff";

interface Props {
  conflict: Conflict;
  language: string;
  theme: string;
  busy: boolean;
  editorRef: MutableRefObject<ConflictEditor | null>;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
  onBack: () => void;
}

export function ConflictView({ conflict, language, theme, busy, editorRef, onKeepMine, onTakeTheirs, onBack }: Props) {
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2 rounded border border-amber-400 p-2" data-testid="conflict-view">
      <p className="text-sm font-medium">{conflict.message}</p>
      <div className="muted flex text-xs">
        <span className="flex-1">On disk now (theirs)</span>
        <span className="flex-1">Yours (you can edit it here)</span>
      </div>
      <div className="min-h-0 flex-1">
        <SideBySideDiff
          original={conflict.theirs}
          modified={conflict.yours}
          language={language}
          theme={theme}
          paths={[`inmemory://conflict/theirs/${conflict.path}`, `inmemory://conflict/yours/${conflict.path}`]}
          onMount={(e) => {
            editorRef.current = e;
          }}
        />
      </div>
      <details>
        <summary className="cursor-pointer text-xs">Unified diff</summary>
        <pre className="max-h-40 overflow-auto rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-800" data-testid="conflict-diff">
          {conflict.diff}
        </pre>
      </details>
      <div className="flex flex-wrap gap-2">
        <button className="btn btn-primary" onClick={onKeepMine} disabled={busy}>
          Save mine over theirs
        </button>
        <button className="btn" onClick={onTakeTheirs}>
          Take theirs
        </button>
        <button className="btn" onClick={onBack}>
          Back to my edit
        </button>
      </div>
    </div>
  );
}
