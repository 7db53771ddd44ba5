import type { SkillState } from "~/server/domain/vocabulary";
import { STATE_STYLE, stateLabel } from "~/components/skills/skill-state";

export function StatusBadge({ status, prefix, title }: { status: SkillState; prefix?: string; title?: string }) {
  const s = STATE_STYLE[status];
  return (
    <span className={`badge gap-1 ring-1 ring-inset ${s.className}`} title={title} data-status={status}>
      <span aria-hidden>{s.symbol}</span>
      {prefix && <span className="font-semibold">{prefix}:</span>}
      {stateLabel(status)}
    </span>
  );
}
