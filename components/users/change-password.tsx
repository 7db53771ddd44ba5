"use client";
// Change one's own password: the current one is required; the new one follows the rule accounts are created with;
// every other session of this account ends (this browser stays signed in).
import { useState } from "react";
import { useTRPCClient } from "~/components/providers/trpc";
import { count } from "~/server/domain/plural";

export function ChangePassword() {
  const client = useTRPCClient();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [again, setAgain] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setError(null);
    setNotice(null);
    if (next !== again) return setError("The two new passwords differ.");
    setBusy(true);
    try {
      const r = await client.user.changePassword.mutate({ current, next });
      setNotice(`Password changed. ${r.sessionsEnded ? `${count(r.sessionsEnded, "other session")} ended.` : "No other session was open."}`);
      setCurrent("");
      setNext("");
      setAgain("");
    } catch (err) {
      setError((err as Error).message); // the server words a refused input (server/api/input-errors.ts)
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="card space-y-2" aria-label="Change password" onSubmit={(e) => void submit(e)}>
      <h2 className="font-semibold">Change password</h2>
      <label className="block text-sm">
        Current password
        <input className="input mt-1 w-full" type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
      </label>
      <label className="block text-sm">
        New password (at least 8 characters)
        <input className="input mt-1 w-full" type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} />
      </label>
      <label className="block text-sm">
        New password again
        <input className="input mt-1 w-full" type="password" autoComplete="new-password" value={again} onChange={(e) => setAgain(e.target.value)} />
      </label>
      <button className="btn btn-primary" type="submit" disabled={busy || !current || !next}>
        Change password
      </button>
      {error && <p className="error-text" data-testid="password-error">{error}</p>}
      {notice && <p className="text-sm text-emerald-700 dark:text-emerald-300" data-testid="password-notice">{notice}</p>}
    </form>
  );
}
