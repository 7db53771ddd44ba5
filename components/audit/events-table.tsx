"use client";
import { CursorPager } from "./cursor-pager";
// The events table: a page of rows (keyset cursor, so page 1,000 costs what page 1 costs), newer/older
// buttons, and the full event (details, hashes) on click.
import { useQuery } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { useTRPC } from "~/components/providers/trpc";
import { DataTable } from "~/components/shell/data-table";
import { count } from "~/server/domain/plural";
import { Time } from "~/components/shell/time";
import { EventDetails, type PickKey } from "./event-details";
import { outcomeClass, rowSource, sourceName } from "./event-format";
import type { QueryFilter } from "./url-filter";

const PAGE = 50;
// Below 1024 px the source, session and duration leave the row (they stay in the event's details), so the table fits.
const WIDE = "hidden lg:table-cell";

export function EventsTable({ filter, onPick }: { filter: QueryFilter; onPick: (key: PickKey, value: string) => void }) {
  const trpc = useTRPC();
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [open, setOpen] = useState<number | null>(null);
  const cursor = cursors[cursors.length - 1];
  const q = useQuery(trpc.audit.list.queryOptions({ ...filter, cursor, limit: PAGE }));
  const events = q.data?.events ?? [];
  return (
    <div className="card overflow-x-auto p-0">
      {q.error && <p className="error-text m-3" data-testid="audit-error">{q.error.message}</p>}
      <DataTable card={false} testId="audit-table" columns={["Time", "Type", "Outcome", "User", { label: "Source", className: WIDE }, "Skill", "Tool", { label: "Session", className: WIDE }, { label: "ms", className: `text-right ${WIDE}` }]}>
        {events.map((e) => (
          <Fragment key={e.id}>
            <tr
              data-testid="audit-row"
              data-event-id={e.id}
              className="cursor-pointer hover:bg-zinc-50 dark:hover:bg-zinc-800/50"
              onClick={() => setOpen(open === e.id ? null : e.id)}
              aria-expanded={open === e.id}
            >
              <td className="text-xs">
                <Time at={e.at} />
              </td>
              <td data-testid="audit-row-type">{e.type}</td>
              <td>{e.outcome && <span className={`badge ${outcomeClass(e.outcome)}`}>{e.outcome}</span>}</td>
              <td className="max-w-48 truncate" title={e.actorId ?? ""}>{e.actorEmail ?? e.actorId}</td>
              <td className={`max-w-40 truncate ${WIDE}`} data-testid="audit-row-source" title={[e.sourceVersion, e.sourceUser].filter(Boolean).join(" · ")}>
                {sourceName(rowSource(e))}
                {e.sourceHost && <span className="muted"> · {e.sourceHost}</span>}
              </td>
              <td>{e.skill}</td>
              <td>{e.tool}</td>
              <td className={`max-w-32 truncate font-mono text-xs ${WIDE}`} title={e.sessionId ?? ""}>{e.sessionId}</td>
              <td className={`text-right ${WIDE}`}>{e.durationMs ?? ""}</td>
            </tr>
            {open === e.id && (
              <tr>
                <td colSpan={9} className="bg-zinc-50 dark:bg-zinc-950/40">
                  <EventDetails e={e} onPick={onPick} />
                </td>
              </tr>
            )}
          </Fragment>
        ))}
        {!q.isLoading && events.length === 0 && (
          <tr>
            <td colSpan={9} className="muted py-6 text-center" data-testid="audit-empty">
              No events match these filters.
            </td>
          </tr>
        )}
      </DataTable>
      <div className="flex items-center justify-between gap-2 p-2 text-sm">
        <span className="muted">
          {q.isFetching ? "Loading…" : `Page ${cursors.length}, ${count(events.length, "row")}`}
        </span>
        <CursorPager cursors={cursors} nextCursor={q.data?.nextCursor} onChange={setCursors} />
      </div>
    </div>
  );
}
