// The keyed audit chain and its signed checkpoints (server/services/audit/README.md explains both).

/** `audit_events.chain`: how a row's hash was computed. */
export const AUDIT_CHAIN_UNKEYED = 1; // sha256, rows written before the key existed
export const AUDIT_CHAIN_HMAC = 2; // HMAC-SHA256 with the key in <home>/secrets

/** A signed checkpoint is written at least every this many rows... */
export const AUDIT_CHECKPOINT_EVERY_ROWS = 1_000;
/** ...and, when rows were written since the last one, at least every this many milliseconds (5 minutes). */
export const AUDIT_CHECKPOINT_EVERY_MS = 5 * 60_000;

/** Files in <home>/secrets (0600, created on first use, never in the database, never logged). */
export const AUDIT_HMAC_KEY_FILE = "audit-hmac-key";
export const AUDIT_SIGNING_KEY_FILE = "audit-checkpoint-key.pem";
/** The first row written with the key: rows from here on must be keyed (kept beside the key, out of the database's reach). */
export const AUDIT_KEYED_FROM_FILE = "audit-keyed-from";
/** The newest checkpoint's seq and line hash, kept beside the keys: a checkpoint file cut at the end, or deleted, shows. */
export const AUDIT_CHECKPOINT_HEAD_FILE = "audit-checkpoint-head";
/** The append-only checkpoint file, in the data home (beside console.db). */
export const AUDIT_CHECKPOINTS_FILE = "checkpoints.jsonl";
