"use client";
// The doctor's policy, for administrators: which severity blocks an approval, and which checks are silenced
// for every skill. The server checks the role again and refuses unknown check codes.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "~/components/providers/trpc";

export function DoctorPolicy() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const policy = useQuery(trpc.doctor.policy.queryOptions());
  const [gate, setGate] = useState<"" | "high" | "medium" | "low">("");
  const [ignore, setIgnore] = useState("");
  useEffect(() => {
    if (!policy.data) return;
    setGate(policy.data.gate ?? "");
    setIgnore(policy.data.ignore.join(" "));
  }, [policy.data]);
  const save = useMutation(
    trpc.doctor.setPolicy.mutationOptions({
      onSuccess: () => void qc.invalidateQueries({ queryKey: trpc.doctor.pathKey() }),
    }),
  );
  return (
    <section className="card space-y-3" aria-label="Doctor policy">
      <h2 className="font-semibold">Policy</h2>
      {policy.data && !policy.data.mayChange && (
        <p className="muted text-sm" data-testid="doctor-policy-read-only">
          It holds for every tenant, so only the global admin (an admin of no tenant) changes it.
        </p>
      )}
      <fieldset disabled={!policy.data?.mayChange} className="min-w-0">
        <form
          className="flex flex-wrap items-end gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate({ gate: gate || null, ignore: ignore.split(/[\s,]+/).filter(Boolean) });
          }}
        >
          <label className="flex flex-col gap-1 text-xs font-medium">
            Approval requires no finding at or above
            <select className="input" value={gate} onChange={(e) => setGate(e.target.value as typeof gate)} aria-label="Approval gate">
              <option value="">(no requirement)</option>
              <option value="high">high</option>
              <option value="medium">medium</option>
              <option value="low">low</option>
            </select>
          </label>
          <label className="flex min-w-72 flex-1 flex-col gap-1 text-xs font-medium">
            Checks silenced for every skill
            <input className="input font-mono" value={ignore} onChange={(e) => setIgnore(e.target.value)} placeholder="tools.unused refs.*" aria-label="Silenced checks" />
          </label>
          <button className="btn" type="submit" disabled={save.isPending}>
            Save policy
          </button>
        </form>
      </fieldset>
      {save.error && <p className="text-sm text-red-700">{save.error.message}</p>}
      {save.isSuccess && !save.isPending && <p className="text-sm text-emerald-700" data-testid="doctor-policy-saved">Saved.</p>}
    </section>
  );
}
