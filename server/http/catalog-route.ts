// GET /api/catalog: the token user's effective skills as JSON, or (?format=tar) their folders as one tar stream,
// each under <name>/. Accepts only `Authorization: Bearer` with catalog:read; a matching If-None-Match gets 304.
// app/api/catalog/route.ts passes the database and data home; tests pass their own.
import type { Db } from "../../db/client";
import type { DataHome } from "../config";
import type { AuditSink } from "../runtime/audit/events";
import { BodyTooLarge, readBodyWithin } from "./body-limit";
import { HTTP_STATUS, isServiceError } from "../domain/errors";
import { tarBlocks } from "../runtime/sync/tar-write";
import { assertFormat, catalogWithFiles, recordSync } from "../services/catalog-api";
import { authenticateBearer } from "../services/tokens";

export interface CatalogRouteDeps {
  db: Db;
  dataHome: DataHome;
  /** Where a refused tenant is recorded (access_denied). */
  audit?: AuditSink;
}

/** A sync report names at most a few thousand skills: a megabyte is plenty. */
const REPORT_BODY_LIMIT = 1024 * 1024;

const jsonError = (status: number, code: string, message: string) =>
  new Response(JSON.stringify({ error: { code, message } }), {
    status,
    headers: { "content-type": "application/json", ...(status === 401 ? { "www-authenticate": 'Bearer realm="omniforge"' } : {}) },
  });

/** If-None-Match may list several tags, weak or strong. */
function matches(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((t) => t.trim().replace(/^W\//, "") === etag || t.trim() === "*");
}

export async function handleCatalogRequest(req: Request, deps: CatalogRouteDeps): Promise<Response> {
  if (req.method !== "GET" && req.method !== "HEAD") return jsonError(405, "METHOD_NOT_ALLOWED", "Use GET.");
  try {
    const principal = await authenticateBearer(deps.db, req.headers.get("authorization"), "catalog:read");
    const url = new URL(req.url);
    const format = assertFormat(url.searchParams.get("format"));
    const q = {
      agent: url.searchParams.get("agent") ?? undefined,
      environment: url.searchParams.get("environment") ?? undefined,
      tenant: url.searchParams.get("tenant") ?? undefined,
    };
    let got: Awaited<ReturnType<typeof catalogWithFiles>>;
    try {
      got = await catalogWithFiles(deps.db, deps.dataHome, principal, q);
    } catch (e) {
      // Another tenant named: refused on the record, as the console's procedures refuse (api/trpc.ts).
      if (isServiceError(e) && e.code === "FORBIDDEN" && typeof e.details?.tenant === "string") {
        deps.audit?.record({
          type: "access_denied",
          actor: principal.userId ? { id: principal.userId, email: principal.email ?? undefined } : { id: `token:${principal.tokenId}` },
          outcome: "refused",
          tenant: e.details.tenant,
          details: { route: "/api/catalog", tokenId: principal.tokenId, reason: e.message },
        });
      }
      throw e;
    }
    const { catalog, files } = got;
    // One tag per representation: the tar and the JSON of the same catalog are different bytes.
    const etag = `"${catalog.etag}${format === "tar" ? "-tar" : ""}"`;
    const common = { etag, "cache-control": "private, no-cache" };
    if (matches(req.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers: common });
    if (format === "json") {
      return new Response(JSON.stringify(catalog), { headers: { ...common, "content-type": "application/json" } });
    }
    const entries = catalog.skills.flatMap((s) =>
      (files.get(s.name) ?? []).map((f) => ({ path: `${s.name}/${f.path}`, data: f.data, mode: f.executable ? 0o755 : 0o644 })),
    );
    const blocks = tarBlocks(entries);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = blocks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
    });
    return new Response(body, { headers: { ...common, "content-type": "application/x-tar" } });
  } catch (e) {
    if (isServiceError(e)) return jsonError(HTTP_STATUS[e.code], e.code, e.message);
    throw e;
  }
}

/**
 * POST /api/catalog/deployments: `omniforge sync` reports what an agent folder now holds (the same token and
 * scope as reading the catalog), for "where is this deployed". A bad body is a 400 and records nothing.
 */
export async function handleSyncReport(req: Request, deps: { db: Db; audit: AuditSink }): Promise<Response> {
  if (req.method !== "POST") return jsonError(405, "METHOD_NOT_ALLOWED", "Use POST.");
  try {
    const principal = await authenticateBearer(deps.db, req.headers.get("authorization"), "catalog:read");
    let body: unknown;
    try {
      const bytes = await readBodyWithin(req, REPORT_BODY_LIMIT);
      body = JSON.parse(new TextDecoder().decode(bytes ?? new Uint8Array()));
    } catch (e) {
      if (e instanceof BodyTooLarge) return jsonError(413, "PAYLOAD_TOO_LARGE", e.message);
      return jsonError(400, "BAD_REQUEST", "The body is not JSON.");
    }
    const r = await recordSync(deps.db, principal, body, deps.audit);
    return new Response(JSON.stringify(r), { headers: { "content-type": "application/json" } });
  } catch (e) {
    if (isServiceError(e)) return jsonError(HTTP_STATUS[e.code], e.code, e.message);
    throw e;
  }
}
