"use client";
// One line under the audit title: how long events stay in the database and where older ones are archived
// (OMNIFORGE_AUDIT_RETENTION_DAYS).
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "~/components/providers/trpc";
import { count } from "~/server/domain/plural";
import { Time } from "~/components/shell/time";

export function RetentionLine() {
  const trpc = useTRPC();
  const { data } = useQuery(trpc.audit.retention.queryOptions());
  if (!data) return null;
  const a = data.lastArchive;
  const last = a ? (
    <>
      {` Last archive: ${a.count.toLocaleString("en-US")} events (ids ${a.firstId}-${a.lastId}) on `}
      <Time at={a.at} />
      {a.file ? `, ${a.file}.` : "."}
    </>
  ) : null;
  return (
    <p className="muted text-xs" data-testid="audit-retention">
      {data.days === null
        ? "Retention: every event is kept (set OMNIFORGE_AUDIT_RETENTION_DAYS to archive older events)."
        : `Retention: events older than ${count(data.days, "day", "days", { group: false })} are archived daily to JSONL files${data.archiveDir ? ` in ${data.archiveDir}` : ""}, then removed from the database; the chain stays verifiable across the cut.`}
      {last}
    </p>
  );
}
