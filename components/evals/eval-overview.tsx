"use client";
// Below the skills list: every skill that has trigger test runs, its last F1 and when it ran, linking to its Evals view.
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "~/components/providers/trpc";
import { DataTable } from "~/components/shell/data-table";
import { evalsHref } from "./view-tabs";
import { Time } from "~/components/shell/time";

export function EvalOverview() {
  const trpc = useTRPC();
  const rows = useQuery(trpc.evals.overview.queryOptions(undefined, { staleTime: 5000 }));
  if (!rows.data?.length) return null;
  return (
    <section className="card mt-4 space-y-2 p-0" aria-label="Trigger tests" data-testid="eval-overview">
      <h2 className="px-3 pt-3 font-semibold">Trigger tests</h2>
      <DataTable card={false} columns={["Skill", "Layer", "Last run", "Passed", "F1", "Provider"]}>
        {rows.data.map((r) => (
          <tr key={r.runId}>
            <td>
              <Link className="text-indigo-700 hover:underline dark:text-indigo-300" href={evalsHref(r.ref)}>
                {r.skillName}
              </Link>
            </td>
            <td>{r.layer}</td>
            <td>{r.finishedAt ? <Time at={r.finishedAt} /> : "—"}</td>
            <td>
              {r.passed}/{r.total}
            </td>
            <td>{r.f1 === null ? "n/a" : `${Math.round(r.f1 * 100)}%`}</td>
            <td>{r.provider}</td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}
