"use client";
// Checks the whole hash chain on the server and says either "intact, N events" or where it first breaks.
import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "~/components/providers/trpc";

export function VerifyButton() {
  const trpc = useTRPC();
  const verify = useMutation(trpc.audit.verify.mutationOptions());
  const r = verify.data;
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <button className="btn" onClick={() => verify.mutate()} disabled={verify.isPending} data-testid="verify-button">
        {verify.isPending ? "Verifying…" : "Verify chain"}
      </button>
      {verify.error && <span className="error-text" data-testid="verify-result">{verify.error.message}</span>}
      {r && r.ok && (
        <span className="badge bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-200" data-testid="verify-result">
          intact, {r.count} events{r.archivedCount ? ` (after ${r.archivedCount} archived)` : ""} · {r.ms} ms
        </span>
      )}
      {r && !r.ok && (
        <span className="error-text" data-testid="verify-result" title={`expected ${r.expected}\nfound ${r.found}`}>
          broken at row {r.brokenAt}: {r.reason}. {r.message}
        </span>
      )}
    </div>
  );
}
