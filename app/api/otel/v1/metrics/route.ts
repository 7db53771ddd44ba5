// OTLP/HTTP metrics from agents (server/http/otel-route.ts): bearer tokens with telemetry:write only.
import { handleOtlpRequest } from "~/server/http/otel-route";
import { auditSinkFor } from "~/server/services/audit";
import { ensureReady } from "~/server/services/bootstrap";
import { answeringDatabaseDown } from "~/server/http/database-down";

export const dynamic = "force-dynamic";

// A database that does not answer gets one 503 line (server/http/database-down.ts).
export const POST = answeringDatabaseDown(async (req: Request) => {
  const { db } = await ensureReady();
  return handleOtlpRequest(req, "metrics", { db, audit: auditSinkFor(db) });
});
