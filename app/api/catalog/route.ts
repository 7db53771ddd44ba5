// The catalog for `omniforge sync` and other machine clients (server/http/catalog-route.ts): bearer tokens only.
import { handleCatalogRequest } from "~/server/http/catalog-route";
import { auditSinkFor } from "~/server/services/audit";
import { ensureReady } from "~/server/services/bootstrap";
import { answeringDatabaseDown } from "~/server/http/database-down";

export const dynamic = "force-dynamic";

// A database that does not answer gets one 503 line (server/http/database-down.ts).
export const GET = answeringDatabaseDown(async (req: Request) => {
  const { db, dataHome } = await ensureReady();
  return handleCatalogRequest(req, { db, dataHome, audit: auditSinkFor(db) });
});
