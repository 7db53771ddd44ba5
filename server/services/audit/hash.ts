// The hash chain: over a canonical serialisation of a row's content plus the previous row's hash. Rows are
// keyed (HMAC-SHA256, chain = 2) since the key exists; older rows keep their plain sha256 (chain = 1).
// Without the key nobody can compute a keyed hash, so a row rewritten and re-hashed without it shows.
import { createHash, createHmac } from "node:crypto";

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
  /** The agent that reported the event (telemetry); absent or null for the console's own events. */
  sourceAgent?: string | null;
  sourceVersion?: string | null;
  sourceHost?: string | null;
  sourceUser?: string | null;
  /** The tenant the request acted for (issue #40); absent or null when it named none. */
  tenant?: string | null;
}

/** The source fields in the order canonical() appends them, or null when the row has none. */
export function sourceTail(row: Pick<ChainedFields, "sourceAgent" | "sourceVersion" | "sourceHost" | "sourceUser">): (string | null)[] | null {
  const tail = [row.sourceAgent ?? null, row.sourceVersion ?? null, row.sourceHost ?? null, row.sourceUser ?? null];
  return tail.some((v) => v !== null) ? tail : null;
}

/**
 * Field order is fixed here, so the serialisation never depends on object key order. The source fields are
 * appended only when one is set: rows without a source (every row written before they existed) serialise
 * exactly as before, so their hashes still verify, while a source added to or removed from a row changes
 * its serialisation and breaks its hash.
 */
export function canonical(row: ChainedFields): string {
  const source = sourceTail(row);
  // A tenant comes after the four source places (nulls when there is no source): the length tells them apart.
  const tail = row.tenant ? [...(source ?? [null, null, null, null]), row.tenant] : source;
  const base = [
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
  ];
  return JSON.stringify(tail ? base.concat(tail) : base);
}

export function chainHash(prevHash: string, row: ChainedFields): string {
  return hashCanonical(prevHash, canonical(row));
}

/** The hash over an already serialised row (verification serialises raw column arrays directly). */
export function hashCanonical(prevHash: string, canonicalRow: string): string {
  return createHash("sha256").update(prevHash).update("\n").update(canonicalRow).digest("hex");
}

/** The keyed hash over an already serialised row. Same framing as hashCanonical, so only the key differs. */
export function macCanonical(key: Buffer, prevHash: string, canonicalRow: string): string {
  return createHmac("sha256", key).update(prevHash).update("\n").update(canonicalRow).digest("hex");
}

export function chainMac(key: Buffer, prevHash: string, row: ChainedFields): string {
  return macCanonical(key, prevHash, canonical(row));
}

/** An audit row as stored (the table or an archive line): the chained fields, their hashes and the chain kind. */
export interface StoredRow extends ChainedFields {
  prevHash: string;
  hash: string;
  /** 1 unkeyed, 2 keyed (absent in archive lines written before the chain was keyed: read as 1). */
  chain: number;
  /** Read from the table always (null for console events); absent in archive lines written before they existed. */
  sourceAgent: string | null;
  sourceVersion: string | null;
  sourceHost: string | null;
  sourceUser: string | null;
  /** Null when the request named no tenant; absent in archive lines written before the column existed. */
  tenant: string | null;
}
