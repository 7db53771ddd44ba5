"use client";
// The person's own sessions: open, rename, delete (which also removes the session's scratch folder).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/components/providers/trpc";
import { ErrorLine, useListActions } from "~/components/shell/list-actions";

export function SessionList({ selected, onSelect, canWrite }: { selected: string | null; onSelect: (id: string | null) => void; canWrite: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const list = useQuery(trpc.playground.list.queryOptions());
  const [editing, setEditing] = useState<string | null>(null);
  const { error, refresh, fail } = useListActions(trpc.playground.list.queryKey());
  const rename = useMutation(
    trpc.playground.rename.mutationOptions({
      onSuccess: () => {
        setEditing(null);
        refresh();
        // The new title also shows in the open session's header.
        void qc.invalidateQueries({ queryKey: trpc.playground.get.queryKey() });
      },
      onError: fail,
    }),
  );
  const remove = useMutation(
    trpc.playground.remove.mutationOptions({
      onSuccess: (r) => {
        if (r.deleted === selected) onSelect(null);
        refresh();
      },
      onError: fail,
    }),
  );
  const sessions = list.data ?? [];
  return (
    <div className="max-h-48 space-y-1 overflow-y-auto lg:max-h-none lg:overflow-visible" data-testid="session-list">
      <ErrorLine error={error} className="error-text text-xs" />
      {!sessions.length && <p className="muted text-xs">No sessions yet.</p>}
      {sessions.map((s) => (
        <div
          key={s.id}
          data-testid="session-item"
          className={`rounded-md border px-2 py-1.5 text-sm ${s.id === selected ? "border-indigo-400 bg-indigo-50 dark:border-indigo-700 dark:bg-indigo-950/40" : "border-zinc-200 dark:border-zinc-800"}`}
        >
          {editing === s.id ? (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                rename.mutate({ sessionId: s.id, title: String(new FormData(e.currentTarget).get("title") ?? "") });
              }}
              className="flex gap-1"
            >
              <input className="input" name="title" defaultValue={s.title} aria-label="Session title" autoFocus />
              <button className="btn" type="submit">
                Save
              </button>
            </form>
          ) : (
            <button className="block w-full truncate text-left font-medium" onClick={() => onSelect(s.id)} title={s.title}>
              {s.title}
            </button>
          )}
          <div className="muted flex items-center gap-2 text-xs">
            <span>
              {s.mode} · {s.provider}
            </span>
            {s.running && <span className="badge bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-100">running</span>}
            {canWrite && editing !== s.id && (
              <span className="ml-auto flex gap-2">
                <button className="underline" onClick={() => setEditing(s.id)}>
                  Rename
                </button>
                <button
                  className="text-red-600 underline dark:text-red-400"
                  onClick={() => {
                    if (window.confirm(`Delete "${s.title}", its history and its scratch folder?`)) remove.mutate({ sessionId: s.id });
                  }}
                >
                  Delete
                </button>
              </span>
            )}
          </div>
        </div>
      ))}
    </div>
  );
}
