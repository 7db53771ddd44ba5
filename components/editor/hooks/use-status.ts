"use client";
// The editor's one status line: busy while a request runs, the last error, the last notice. Every action
// clears both messages when it starts, so a message always belongs to the latest thing the person did.
import { useState } from "react";

export const errMessage = (e: unknown) => (e instanceof Error ? e.message : String(e));

export function useStatus() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function run<T>(what: () => Promise<T>): Promise<T | undefined> {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      return await what();
    } catch (e) {
      setError(errMessage(e));
      return undefined;
    } finally {
      setBusy(false);
    }
  }

  return { busy, setBusy, error, setError, notice, setNotice, run };
}

export type Status = ReturnType<typeof useStatus>;
