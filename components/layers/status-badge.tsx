import type { CandidateStatus } from "~/server/runtime/registry/types";
import { STATUS_STYLE } from "./status";

export function StatusBadge({ status, prefix, title }: { status: CandidateStatus; prefix?: string; title?: string }) {
  const s = STATUS_STYLE[status];
  return (
    <span className={`badge gap-1 ring-1 ring-inset ${s.className}`} title={title} data-status={status}>
      <span aria-hidden>{s.symbol}</span>
      {prefix && <span className="font-semibold">{prefix}:</span>}
      {s.label}
    </span>
  );
}
