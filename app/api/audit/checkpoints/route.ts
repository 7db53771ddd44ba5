// Download of the signed audit checkpoints (checkpoints.jsonl) or, with ?format=pem, the public key that
// verifies them. Admins only, like chain verification: the file names every checkpointed row's hash.
import fs from "node:fs";
import { Readable } from "node:stream";
import { requireRole, textResponse as text } from "~/server/http/route-auth";
import { loadAuditKeys, publicKeyPem } from "~/server/services/audit/keys";
import { ensureReady } from "~/server/services/bootstrap";
import { answeringDatabaseDown } from "~/server/http/database-down";

export const dynamic = "force-dynamic";

// A database that does not answer gets one 503 line (server/http/database-down.ts).
export const GET = answeringDatabaseDown(async (req: Request) => {
  const { db } = await ensureReady();
  const refused = await requireRole(db, { route: "/api/audit/checkpoints", required: "admin", toDo: "download audit checkpoints", doing: "Downloading audit checkpoints" });
  if (refused instanceof Response) return refused;
  const format = new URL(req.url).searchParams.get("format") ?? "jsonl";
  const keys = loadAuditKeys(db);
  if (!keys.publicKey || !keys.checkpointsFile) return text(404, "No checkpoints yet: no audit event was written with the key.");
  const headers = { "cache-control": "no-store" };
  if (format === "pem") {
    return new Response(publicKeyPem(keys.publicKey), {
      headers: { ...headers, "content-type": "application/x-pem-file", "content-disposition": `attachment; filename="audit-checkpoint-key.pub.pem"` },
    });
  }
  if (format !== "jsonl") return text(400, `Unknown format "${format}": use jsonl or pem.`);
  if (!fs.existsSync(keys.checkpointsFile)) return text(404, "No checkpoints yet.");
  // Streamed: the file grows for as long as the console runs.
  const body = Readable.toWeb(fs.createReadStream(keys.checkpointsFile)) as ReadableStream<Uint8Array>;
  return new Response(body, {
    headers: { ...headers, "content-type": "application/x-ndjson; charset=utf-8", "content-disposition": `attachment; filename="audit-checkpoints.jsonl"` },
  });
});
