"use client";
// What the admin screens' buttons share: after a change, clear the error line and refetch what the change
// affects; after a refusal, say why in one line (the input's field errors when the server's validation refused it).
import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useState } from "react";

/** The part of a tRPC client error the line reads; zodError is what server/api/trpc.ts's formatter adds. */
export interface CallError {
  message: string;
  data?: { zodError?: { fieldErrors: Record<string, string[] | undefined> } | null } | null;
}

/** The text a person can act on: the field errors of a refused input, else the server's message. */
export function errorText(e: CallError): string {
  const fields = e.data?.zodError ? Object.values(e.data.zodError.fieldErrors).flat().join(" ") : "";
  return fields || e.message;
}

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
  return { error, refresh, done, fail: (e: CallError) => setError(errorText(e)) };
}

export function ErrorLine({ error, testId, className = "error-text" }: { error: string | null; testId?: string; className?: string }) {
  if (!error) return null;
  return (
    <p className={className} data-testid={testId}>
      {error}
    </p>
  );
}
