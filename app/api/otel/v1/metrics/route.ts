// OTLP/HTTP metrics from agents (server/http/otel-route.ts): bearer tokens with telemetry:write only.
import { handleOtlpRequest } from "~/server/http/otel-route";
import { auditSinkFor } from "~/server/services/audit";
import { ensureReady } from "~/server/services/bootstrap";

export const dynamic = "force-dynamic";

export async function POST(req: Request) {
  const { db } = await ensureReady();
  return handleOtlpRequest(req, "metrics", { db, audit: auditSinkFor(db) });
}
