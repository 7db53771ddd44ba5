import { NextResponse } from "next/server";
import { answerAtEdge } from "~/server/http/edge";
import { ensureReady } from "~/server/services/bootstrap";
import { healthAnswer } from "~/server/services/health";

export const dynamic = "force-dynamic";

export async function GET() {
  const { status, body } = await healthAnswer(ensureReady);
  return NextResponse.json(body, { status });
}

// A probe's answer must not wait behind Next's pipeline, nor behind the tRPC calls that arrived with it: the
// console's server answers it directly, as soon as it arrives (server/http/edge.ts).
answerAtEdge("/api/health", ["GET"], GET, { immediate: true });
