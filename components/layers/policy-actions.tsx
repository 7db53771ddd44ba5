"use client";
// Admin shortcuts from the layers view: block the name everywhere, or disable / re-enable one definition.
// They call the same policy.change procedure as the Policies page (admin-only on the server), after the same
// preview of what the change does (policy.preview).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "~/components/providers/trpc";
import { useProposedChange } from "~/components/policies/change-preview";
import type { ChainLink } from "./types";

export function usePolicyChange() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  return useMutation(
    trpc.policy.change.mutationOptions({
      onSuccess: () => {
        void qc.invalidateQueries({ queryKey: trpc.layers.pathKey() });
        void qc.invalidateQueries({ queryKey: trpc.policy.pathKey() });
      },
    }),
  );
}

export function BlockNameButton({ name, blocked }: { name: string; blocked: boolean }) {
  const change = usePolicyChange();
  const { propose, box } = useProposedChange((c) => change.mutate(c));
  return (
    <span className="inline-flex items-center gap-2">
      {box}
      <button
        className={`btn ${blocked ? "" : "btn-danger"}`}
        disabled={change.isPending}
        onClick={() => propose(blocked ? { op: "unblock", name } : { op: "block", name })}
      >
        {blocked ? "Unblock this name" : "Block this name everywhere"}
      </button>
      {change.error && <span className="error-text">{change.error.message}</span>}
    </span>
  );
}

export function LinkActions({ name, link }: { name: string; link: ChainLink }) {
  const change = usePolicyChange();
  const { propose, box } = useProposedChange((c) => change.mutate(c));
  const rule = { name, layer: link.layer, ...(link.plugin ? { plugin: link.plugin } : {}) };
  return (
    <span className="mt-1 flex flex-wrap items-center gap-2 text-xs">
      {box}
      {link.status === "disabled" ? (
        <button className="btn py-0.5 text-xs" disabled={change.isPending} onClick={() => propose({ op: "enable", ...rule })}>
          Enable this definition
        </button>
      ) : link.status !== "blocked" && link.status !== "invalid" ? (
        <button className="btn py-0.5 text-xs" disabled={change.isPending} onClick={() => propose({ op: "disable", ...rule })}>
          Disable in the {link.layer} layer
        </button>
      ) : null}
      {link.status === "pending-approval" && (
        <Link className="text-indigo-700 underline dark:text-indigo-300" href="/policies">
          Review in Policies
        </Link>
      )}
      {change.error && <span className="error-text">{change.error.message}</span>}
    </span>
  );
}
