"use client";
import { CursorPager } from "./cursor-pager";
// Every refused tool call and blocked script read, with a link to the playground session it came from.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "~/components/providers/trpc";
import { DataTable } from "~/components/shell/data-table";
import type { QueryFilter } from "./url-filter";
import { Time } from "~/components/shell/time";

export function ViolationsTable({ filter }: { filter: QueryFilter }) {
  const trpc = useTRPC();
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const q = useQuery(trpc.audit.violations.queryOptions({ ...filter, cursor: cursors[cursors.length - 1], limit: 50 }));
  const events = q.data?.events ?? [];
  return (
    <div className="card overflow-x-auto p-0">
      {q.error && <p className="error-text m-3">{q.error.message}</p>}
      <DataTable card={false} testId="violations-table" columns={["Time", "Kind", "Skill", "Tool", "What was refused", "User", "Session"]}>
        {events.map((e) => {
          const d = e.details ?? {};
          const what =
            e.type === "script_read_blocked"
              ? `read of ${String(d.script ?? "a script")}`
              : Array.isArray(d.allowed)
                ? `allowed: ${(d.allowed as string[]).join(", ") || "(none)"}`
                : "";
          return (
            <tr key={e.id} data-testid="violation-row">
              <td className="text-xs whitespace-nowrap"><Time at={e.at} /></td>
              <td>{e.type === "script_read_blocked" ? "script read blocked" : "tool refused"}</td>
              <td>{e.skill}</td>
              <td>{e.tool}</td>
              <td className="max-w-80 truncate text-xs" title={what}>{what}</td>
              <td className="max-w-48 truncate">{e.actorEmail ?? e.actorId}</td>
              <td>
                {e.sessionId ? (
                  <Link className="font-mono text-xs text-indigo-600 underline dark:text-indigo-400" href={`/playground?session=${encodeURIComponent(e.sessionId)}`}>
                    {e.sessionId}
                  </Link>
                ) : (
                  <span className="muted">none</span>
                )}
              </td>
            </tr>
          );
        })}
        {!q.isLoading && events.length === 0 && (
          <tr>
            <td colSpan={7} className="muted py-6 text-center">
              No refused tool calls or blocked script reads match these filters.
            </td>
          </tr>
        )}
      </DataTable>
      <div className="flex justify-end p-2">
        <CursorPager cursors={cursors} nextCursor={q.data?.nextCursor} onChange={setCursors} />
      </div>
    </div>
  );
}
