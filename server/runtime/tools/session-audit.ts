// Who and where, for every audit event a tool, hook or stack change records inside an agent session: the
// fields are the same everywhere so the audit log can be filtered by session, model and mode alike.
import type { ToolContext } from "./types";

export function sessionAuditFields(ctx: ToolContext) {
  return {
    actor: { id: ctx.userId },
    sessionId: ctx.sessionId,
    ...(ctx.model ? { model: ctx.model } : {}),
    ...(ctx.mode ? { mode: ctx.mode } : {}),
  };
}
