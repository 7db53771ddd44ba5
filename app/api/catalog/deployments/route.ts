// `omniforge sync` reports what it wrote (server/http/catalog-route.ts): bearer tokens only.
import { handleSyncReport } from "~/server/http/catalog-route";
import { auditSinkFor } from "~/server/services/audit";
import { ensureReady } from "~/server/services/bootstrap";
import { answeringDatabaseDown } from "~/server/http/database-down";

export const dynamic = "force-dynamic";

// A database that does not answer gets one 503 line (server/http/database-down.ts).
export const POST = answeringDatabaseDown(async (req: Request) => {
  const { db } = await ensureReady();
  return handleSyncReport(req, { db, audit: auditSinkFor(db) });
});
