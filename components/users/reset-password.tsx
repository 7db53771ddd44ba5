"use client";
// An administrator's password reset for one user: a one-time password, shown here once, never again.
import { useState } from "react";
import { useTRPCClient } from "~/components/providers/trpc";

export function ResetPassword({ userId, email }: { userId: string; email: string }) {
  const client = useTRPCClient();
  const [shown, setShown] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState(false);
  if (shown) {
    return (
      <span className="text-xs" data-testid={`one-time-password-${email}`}>
        One-time password (shown once): <code className="select-all">{shown}</code>
      </span>
    );
  }
  if (!confirm) {
    return (
      <button className="btn px-2 py-0.5 text-xs" onClick={() => setConfirm(true)}>
        Reset password…
      </button>
    );
  }
  return (
    <span className="flex items-center gap-1 text-xs">
      Sign {email} out and set a new password?
      <button
        className="btn btn-danger px-2 py-0.5 text-xs"
        onClick={() =>
          void client.user.resetPassword
            .mutate({ id: userId })
            .then((r) => setShown(r.password))
            .catch((e: Error) => setError(e.message))
        }
      >
        Reset
      </button>
      <button className="btn px-2 py-0.5 text-xs" onClick={() => setConfirm(false)}>
        Cancel
      </button>
      {error && <span className="error-text">{error}</span>}
    </span>
  );
}
