"use client";
// "Where is this deployed": which users' machines hold this skill through `omniforge sync`, for which agent, with
// which digest and when last seen. Administrators see every machine; others their own.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "~/components/providers/trpc";
import { DataTable } from "~/components/shell/data-table";
import { Time } from "~/components/shell/time";

export function SkillDeployments({ name }: { name: string }) {
  const trpc = useTRPC();
  const rows = useQuery(trpc.tokens.deployments.queryOptions({ name }));
  return (
    <section className="card space-y-2" aria-label="Where is this deployed" data-testid="skill-deployments">
      <h2 className="font-semibold">Where is this deployed</h2>
      {rows.data?.length === 0 && (
        <p className="muted text-sm">
          No machine has reported this skill yet (<code>omniforge sync</code> reports what it writes).
        </p>
      )}
      {!!rows.data?.length && (
        <DataTable columns={["User", "Machine", "Agent", "Digest", "Since", "Last seen"]} card={false} className="text-sm">
          {rows.data.map((d) => (
            <tr key={`${d.tokenName}/${d.host}/${d.agent}/${d.scope}`}>
              <td>{d.user ?? `machine token “${d.tokenName}”`}</td>
              <td>{d.host}</td>
              <td>
                {d.agent} ({d.scope})
              </td>
              <td>
                <code title={d.digest}>{d.digest.slice(7, 19)}</code>
              </td>
              <td><Time at={d.firstSeenAt} /></td>
              <td><Time at={d.lastSeenAt} /></td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
