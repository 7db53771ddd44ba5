// Access-token vocabulary: the scopes a token may carry and the shape of the secret.

export const TOKEN_SCOPES = ["catalog:read", "telemetry:write"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** Recognisable in logs and by secret scanners. */
export const TOKEN_PREFIX = "omf_";
/** Random bytes behind the prefix (base64url). */
export const TOKEN_SECRET_BYTES = 32;
export const TOKEN_DEFAULT_EXPIRY_DAYS = 90;
export const TOKEN_MAX_EXPIRY_DAYS = 366;
/** last_used_at is written at most this often per token, so polling does not write on every request. */
export const TOKEN_LAST_USED_RESOLUTION_MS = 60_000;
