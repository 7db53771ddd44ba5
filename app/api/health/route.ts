import { NextResponse } from "next/server";
import { answerAtEdge } from "~/server/http/edge";
import { ensureReady } from "~/server/services/bootstrap";
import { healthReport } from "~/server/services/health";

export const dynamic = "force-dynamic";

export async function GET() {
  try {
    const { db } = await ensureReady();
    const report = healthReport(db);
    return NextResponse.json(report, { status: report.status === "ok" ? 200 : 503 });
  } catch (e) {
    return NextResponse.json({ status: "error", database: "error", error: (e as Error).message }, { status: 503 });
  }
}

// A probe's answer must not wait behind Next's pipeline, nor behind the tRPC calls that arrived with it: the
// console's server answers it directly, as soon as it arrives (server/http/edge.ts).
answerAtEdge("/api/health", ["GET"], GET, { immediate: true });
