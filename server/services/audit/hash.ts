// The hash chain: sha256 over a canonical serialisation of a row's content plus the previous row's hash.
import { createHash } from "node:crypto";

export const GENESIS_HASH = "0".repeat(64);

export interface ChainedFields {
  id: number;
  at: number;
  type: string;
  actorId: string | null;
  actorEmail: string | null;
  sessionId: string | null;
  skill: string | null;
  layer: string | null;
  digest: string | null;
  tool: string | null;
  model: string | null;
  mode: string | null;
  outcome: string | null;
  durationMs: number | null;
  details: string | null;
}

/** Field order is fixed here, so the serialisation never depends on object key order. */
export function canonical(row: ChainedFields): string {
  return JSON.stringify([
    row.id,
    row.at,
    row.type,
    row.actorId,
    row.actorEmail,
    row.sessionId,
    row.skill,
    row.layer,
    row.digest,
    row.tool,
    row.model,
    row.mode,
    row.outcome,
    row.durationMs,
    row.details,
  ]);
}

export function chainHash(prevHash: string, row: ChainedFields): string {
  return hashCanonical(prevHash, canonical(row));
}

/** The hash over an already serialised row (verification serialises raw column arrays directly). */
export function hashCanonical(prevHash: string, canonicalRow: string): string {
  return createHash("sha256").update(prevHash).update("\n").update(canonicalRow).digest("hex");
}
