// `omniforge sync` reports what it wrote (server/http/catalog-route.ts): bearer tokens only.
import { handleSyncReport } from "~/server/http/catalog-route";
import { auditSinkFor } from "~/server/services/audit";
import { ensureReady } from "~/server/services/bootstrap";

export const dynamic = "force-dynamic";

export async function POST(req: Request) {
  const { db } = await ensureReady();
  return handleSyncReport(req, { db, audit: auditSinkFor(db) });
}
