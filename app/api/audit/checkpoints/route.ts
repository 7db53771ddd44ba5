// Download of the signed audit checkpoints (checkpoints.jsonl) or, with ?format=pem, the public key that
// verifies them. Admins only, like chain verification: the file names every checkpointed row's hash.
import fs from "node:fs";
import { Readable } from "node:stream";
import { getSessionUser, requestIp } from "~/server/auth";
import { loadAuditKeys, publicKeyPem } from "~/server/services/audit/keys";
import { auditSinkFor } from "~/server/services/audit/sink";
import { ensureReady } from "~/server/services/bootstrap";

export const dynamic = "force-dynamic";

const text = (status: number, message: string) =>
  new Response(message + "\n", { status, headers: { "content-type": "text/plain; charset=utf-8" } });

export async function GET(req: Request) {
  const { db } = await ensureReady();
  const user = await getSessionUser();
  if (!user) return text(401, "Sign in to download audit checkpoints.");
  if (user.role !== "admin") {
    auditSinkFor(db).record({
      type: "access_denied",
      actor: { id: user.id, email: user.email },
      outcome: "refused",
      details: { route: "/api/audit/checkpoints", role: user.role, required: "admin", ip: await requestIp() },
    });
    return text(403, `Downloading audit checkpoints needs the admin role; you are ${user.role}.`);
  }
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
}
