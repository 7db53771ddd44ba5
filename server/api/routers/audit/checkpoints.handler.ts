import type { AuthedContext } from "../../trpc";
import { checkpointKeyInfo } from "../../../services/audit/checkpoint-check";
import { loadAuditKeys } from "../../../services/audit/keys";

/**
 * The checkpoint signing key's public half and the checkpoint count (admins only): publish the key, and a
 * downloaded checkpoints.jsonl (GET /api/audit/checkpoints) can be verified anywhere without a secret.
 */
export function checkpoints({ ctx }: { ctx: AuthedContext }) {
  return checkpointKeyInfo(loadAuditKeys(ctx.db));
}
