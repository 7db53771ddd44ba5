// Streamed export of the filtered audit events (CSV or JSONL). Checks the session and role itself:
// viewers are refused, authors get only their own events, admins all. Rows are read a page at a time.
import { requireRole, textResponse as text } from "~/server/http/route-auth";
import { exportStream } from "~/server/services/audit/export";
import { AUDIT_FILTER_KEYS } from "~/server/domain/audit-filter-keys";
import { auditFilterSchema, auditScopeOf } from "~/server/services/audit/filter";
import { resolveUserFilter } from "~/server/services/audit/resolve";
import { ensureReady } from "~/server/services/bootstrap";
import { inputErrorMessage } from "~/server/api/input-errors";
import { answeringDatabaseDown } from "~/server/http/database-down";

export const dynamic = "force-dynamic";

// A database that does not answer gets one 503 line (server/http/database-down.ts).
export const GET = answeringDatabaseDown(async (req: Request) => {
  const { db } = await ensureReady();
  const user = await requireRole(db, { route: "/api/audit/export", required: "author", toDo: "export audit events", doing: "Exporting audit events" });
  if (user instanceof Response) return user;
  const url = new URL(req.url);
  const format = url.searchParams.get("format") ?? "csv";
  if (format !== "csv" && format !== "jsonl") return text(400, `Unknown format "${format}": use csv or jsonl.`);
  const raw: Record<string, string> = {};
  for (const k of AUDIT_FILTER_KEYS) {
    const v = url.searchParams.get(k);
    if (v) raw[k] = v;
  }
  const parsed = auditFilterSchema.safeParse(raw);
  if (!parsed.success) {
    return text(400, `Bad filter: ${inputErrorMessage(parsed.error)}`);
  }
  const scope = await auditScopeOf(db, user);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  return new Response(exportStream(db, await resolveUserFilter(db, parsed.data), scope, format), {
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="audit-${stamp}.${format}"`,
      "cache-control": "no-store",
    },
  });
});
