"use client";
// What the admin screens' buttons share: after a change, clear the error line and refetch what the change
// affects; after a refusal, say why in one line (the server words a refused input itself: server/api/input-errors.ts).
import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useState } from "react";

/** The error line's state and the two outcomes of a change; `keys` are the queries a change makes stale. */
export function useListActions(...keys: QueryKey[]) {
  const qc = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const refresh = () => {
    for (const queryKey of keys) void qc.invalidateQueries({ queryKey });
  };
  const done = () => {
    setError(null);
    refresh();
  };
  // clear: a new attempt the browser's own field check stops must not leave the last refusal's line standing.
  return { error, refresh, done, clear: () => setError(null), fail: (e: { message: string }) => setError(e.message) };
}

export function ErrorLine({ error, testId, className = "error-text" }: { error: string | null; testId?: string; className?: string }) {
  if (!error) return null;
  return (
    <p className={className} data-testid={testId}>
      {error}
    </p>
  );
}
