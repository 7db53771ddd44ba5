import type { AuthedContext } from "../../trpc";
import { retentionStatus } from "../../../services/audit/retention-job";

/**
 * The retention line of the audit page. Admins see where archives go (a path on the server); authors only
 * how long events are kept.
 */
export async function retention({ ctx }: { ctx: AuthedContext }) {
  const s = await retentionStatus(ctx.db, ctx.dataHome);
  if (ctx.user.role === "admin") return s;
  return { days: s.days, archiveDir: null, lastArchive: s.lastArchive ? { ...s.lastArchive, file: null } : null };
}
