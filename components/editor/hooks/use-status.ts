"use client";
// The editor's one status line: busy while a request runs, the last error, the last notice. Every action
// clears both messages when it starts, so a message always belongs to the latest thing the person did.
import { useCallback, useState } from "react";

export const errMessage = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** A follow-up the notice offers (e.g. updating links after a rename): one button beside it. */
export interface NoticeAction {
  label: string;
  run: () => void;
}

export function useStatus() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNoticeText] = useState<string | null>(null);
  const [noticeAction, setNoticeAction] = useState<NoticeAction | null>(null);
  const setNotice = useCallback((text: string | null, action: NoticeAction | null = null) => {
    setNoticeText(text);
    setNoticeAction(action);
  }, []);

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

  return { busy, setBusy, error, setError, notice, noticeAction, setNotice, run };
}

export type Status = ReturnType<typeof useStatus>;
