import { NextResponse } from "next/server";
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
