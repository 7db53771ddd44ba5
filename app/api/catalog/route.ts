// The catalog for `omniforge sync` and other machine clients (server/http/catalog-route.ts): bearer tokens only.
import { handleCatalogRequest } from "~/server/http/catalog-route";
import { auditSinkFor } from "~/server/services/audit";
import { ensureReady } from "~/server/services/bootstrap";

export const dynamic = "force-dynamic";

export async function GET(req: Request) {
  const { db, dataHome } = await ensureReady();
  return handleCatalogRequest(req, { db, dataHome, audit: auditSinkFor(db) });
}
