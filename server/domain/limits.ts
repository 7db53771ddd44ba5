// Limits and modes the console enforces at its edges (server/http, server/config); the skill format's own are
// FORMAT_LIMITS in vocabulary.ts. Numbers only: the code that applies them says why.

const MiB = 1024 * 1024;

/** The data home and its secrets folder: only the owner may list or enter them. */
export const PRIVATE_DIR_MODE = 0o700;
/** console.db (password hashes, audit), secrets/*, archived audit files: only the owner may read them. */
export const PRIVATE_FILE_MODE = 0o600;

/** Largest archive accepted by skill.import (the form says so too). */
export const IMPORT_ARCHIVE_MAX_BYTES = 20 * MiB;

/**
 * Request body limits, refused with 413 before the body is read (by Content-Length, and by counting while
 * streaming when there is none). tRPC calls carry JSON; the two procedures below carry more by design.
 */
export const BODY_LIMITS = {
  trpc: 2 * MiB,
  /** Editor text is up to 2 MiB of characters; JSON escapes can make it longer on the wire. */
  trpcEditorText: 6 * MiB,
  /** An archive in base64 (4/3 of its size) inside a small JSON envelope. */
  trpcImport: Math.ceil((IMPORT_ARCHIVE_MAX_BYTES * 4) / 3) + 64 * 1024,
} as const;

/** How much of a body refused for its declared size the console reads and drops, so the client gets the refusal. */
export const REFUSED_BODY_DRAIN_BYTES = 64 * MiB;

/** Procedures whose bodies may exceed BODY_LIMITS.trpc, and what they may carry instead. */
export const TRPC_BODY_LIMIT_BY_PROCEDURE: Readonly<Record<string, number>> = {
  "skill.save": BODY_LIMITS.trpcEditorText,
  "skill.check": BODY_LIMITS.trpcEditorText,
  "skill.createFile": BODY_LIMITS.trpcEditorText,
  "draft.save": BODY_LIMITS.trpcEditorText,
  // A pasted trigger set (skill-creator's JSON), up to 2 MiB of text like the editor.
  "evals.parseSet": BODY_LIMITS.trpcEditorText,
  "skill.import": BODY_LIMITS.trpcImport,
};

/** Most audit events one page may hold: the dashboard's list, the API and the export's pages. */
export const AUDIT_PAGE_MAX = 500;

/** A console session ends this long after its last request (the session cookie lives as long). */
export const SESSION_IDLE_MAX_MS = 8 * 60 * 60 * 1000;
/** How stale a session's last-seen time may get before a request writes it again (one write a minute, not one a request). */
export const SESSION_TOUCH_EVERY_MS = 60 * 1000;
/** Ended or expired session rows are kept this long (who was signed in when), then dropped. */
export const SESSION_KEEP_ENDED_MS = 30 * 24 * 60 * 60 * 1000;

/** Editor drafts (unsaved text kept on the server) older than this are dropped when their user next lists drafts. */
export const DRAFT_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;
/** Drafts one user keeps at most; saving one more drops that user's oldest. */
export const DRAFTS_PER_USER_MAX = 200;

/**
 * Longest skill name a policy (block, disable, allowlist, config.yaml's disabled_skills) holds. Loading is lenient,
 * so any name a SKILL.md gives can be active (any characters); a policy must be able to name every one of them.
 */
export const POLICY_NAME_MAX_CHARS = 1024;

/** An email address as mail systems carry it (RFC 5321): at most 64 characters before the @, 254 in all. */
export const EMAIL_LOCAL_MAX_CHARS = 64;
export const EMAIL_MAX_CHARS = 254;
/** A console user's display name. */
export const USER_NAME_MAX_CHARS = 120;

/**
 * A git source's checkout (server/runtime/sources): at most this many files and bytes in the pinned commit's tree,
 * checked before anything is written, and this long for one git command (a fetch of a slow or stalled remote).
 */
export const SOURCE_LIMITS = { maxFiles: 5_000, maxBytes: 100 * MiB, gitTimeoutMs: 120_000 } as const;

/** Runs of one trigger-test query at most (a model's picks vary; the rate over ten runs is steady enough). */
export const MAX_RUNS = 10;
