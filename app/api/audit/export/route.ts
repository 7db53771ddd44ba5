// Streamed export of the filtered audit events (CSV or JSONL). Checks the session and role itself:
// viewers are refused, authors get only their own events, admins all. Rows are read a page at a time.
import { getSessionUser, requestIp } from "~/server/auth";
import { auditSinkFor } from "~/server/services/audit/sink";
import { exportStream } from "~/server/services/audit/export";
import { AUDIT_FILTER_KEYS, auditFilterSchema, auditScopeFor } from "~/server/services/audit/filter";
import { resolveUserFilter } from "~/server/services/audit/resolve";
import { ensureReady } from "~/server/services/bootstrap";

export const dynamic = "force-dynamic";

const text = (status: number, message: string) =>
  new Response(message + "\n", { status, headers: { "content-type": "text/plain; charset=utf-8" } });

export async function GET(req: Request) {
  const { db } = await ensureReady();
  const user = await getSessionUser();
  if (!user) return text(401, "Sign in to export audit events.");
  if (user.role === "viewer") {
    auditSinkFor(db).record({
      type: "access_denied",
      actor: { id: user.id, email: user.email },
      outcome: "refused",
      details: { route: "/api/audit/export", role: user.role, required: "author", ip: await requestIp() },
    });
    return text(403, "Exporting audit events needs the author role; you are viewer.");
  }
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
    return text(400, `Bad filter: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  const scope = auditScopeFor(user);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  return new Response(exportStream(db, resolveUserFilter(db, parsed.data), scope, format), {
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="audit-${stamp}.${format}"`,
      "cache-control": "no-store",
    },
  });
}
