// Request body limits (server/domain/limits.ts), applied before a body is read: by Content-Length in the
// console's server, and by counting while streaming in the tRPC route, so a client that sends no length or a
// false one is cut off at the limit instead of being buffered whole.
import { setting } from "../../env";
import { BODY_LIMITS, TRPC_BODY_LIMIT_BY_PROCEDURE } from "../domain/limits";
import { readStreamWithin } from "../runtime/bytes";

const OTHER_ROUTES_LIMIT = 1024 * 1024;

/** The limit for a request path: per procedure for tRPC (the largest of a batch), the telemetry setting for OTLP, 1 MiB elsewhere. */
export function bodyLimitFor(url: string): number {
  const pathname = url.split("?")[0] ?? "";
  if (pathname.startsWith("/api/otel/")) return setting("OMNIFORGE_TELEMETRY_MAX_BYTES");
  const m = /^\/api\/trpc\/([^/]+)$/.exec(pathname);
  if (!m) return pathname.startsWith("/api/trpc") ? BODY_LIMITS.trpc : OTHER_ROUTES_LIMIT;
  let limit: number = BODY_LIMITS.trpc;
  for (const name of decodeURIComponent(m[1]!).split(",")) limit = Math.max(limit, TRPC_BODY_LIMIT_BY_PROCEDURE[name] ?? 0);
  return limit;
}

export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`The request body is larger than the limit of ${limit} bytes.`);
  }
}

/**
 * The body of `req`, read only while it stays within `limit`: refused at once when Content-Length says it is
 * larger, and cancelled as soon as the bytes read pass the limit.
 */
export async function readBodyWithin(req: Request, limit: number): Promise<Uint8Array | null> {
  const declared = req.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) throw new BodyTooLarge(limit);
  if (!req.body) return null;
  const bytes = await readStreamWithin(req.body, limit);
  if (!bytes) throw new BodyTooLarge(limit);
  return bytes;
}
