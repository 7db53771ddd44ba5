"use client";
// Checks the whole keyed chain on the server and says either "intact, N events" or what broke and where,
// then what the signed checkpoints say (which one still holds), with links to download them and their key.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "~/components/providers/trpc";
import { count, plural } from "~/server/domain/plural";

export function VerifyButton() {
  const trpc = useTRPC();
  const verify = useMutation(trpc.audit.verify.mutationOptions());
  const r = verify.data;
  // A checkpoint failure is already the message of the result: the checkpoint line then only names the key.
  const cpShownAbove = !!r && !r.ok && r.reason.startsWith("checkpoint");
  // The first broken row, as it is stored now (absent when the break is a row that was removed).
  const broken = useQuery({ ...trpc.audit.get.queryOptions({ id: r && !r.ok && r.brokenAt > 0 ? r.brokenAt : 1 }), enabled: !!r && !r.ok && r.brokenAt > 0, retry: false });
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
        <div className="error-text w-full" data-testid="verify-result">
          {r.brokenAt > 0 ? `broken at row ${r.brokenAt}` : "broken"}: {r.reason}. {r.message}
          <div className="mt-1 font-mono text-xs break-all">
            expected {r.expected}
            <br />
            found {r.found || "(nothing)"}
          </div>
          {broken.data && (
            <pre className="mt-2 max-h-64 overflow-auto text-xs whitespace-pre-wrap" data-testid="verify-broken-row">
              {JSON.stringify({ ...broken.data, at: new Date(broken.data.at).toISOString() }, null, 2)}
            </pre>
          )}
        </div>
      )}
      {r && (
        <div className="w-full text-xs text-zinc-600 dark:text-zinc-400" data-testid="verify-keying">
          {r.keyedFrom === null
            ? "No row is keyed yet."
            : r.unkeyed
              ? `Keyed (HMAC) from row ${r.keyedFrom}; ${count(r.unkeyed, "older row")} ${plural(r.unkeyed, "was", "were")} written before the key existed: checked with a plain hash, and anchored by the first keyed row, which links to ${plural(r.unkeyed, "it", "them")}.`
              : `Keyed (HMAC) from row ${r.keyedFrom}.`}
        </div>
      )}
      {r && (
        <div className={`w-full text-xs ${!cpShownAbove && (r.checkpoints.problems.length || r.checkpoints.mismatch) ? "error-text" : "text-zinc-600 dark:text-zinc-400"}`} data-testid="verify-checkpoints">
          Checkpoints: {cpShownAbove ? "" : r.checkpoints.message}
          {r.checkpoints.key && (
            <>
              {" "}
              Signed by key {r.checkpoints.key}:{" "}
              <a className="underline" href="/api/audit/checkpoints" download data-testid="download-checkpoints">
                checkpoints.jsonl
              </a>{" "}
              ·{" "}
              <a className="underline" href="/api/audit/checkpoints?format=pem" download data-testid="download-checkpoint-key">
                public key
              </a>
            </>
          )}
        </div>
      )}
    </div>
  );
}
