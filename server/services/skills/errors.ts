// Errors of the skills service. The router maps `code` to a tRPC error code; messages are for a person.
export type SkillErrorCode = "FORBIDDEN" | "NOT_FOUND" | "CONFLICT" | "BAD_REQUEST";

export class SkillServiceError extends Error {
  constructor(
    readonly code: SkillErrorCode,
    message: string,
    /** Extra facts for the caller (e.g. archive error code, diagnostics). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "SkillServiceError";
  }
}

/** The file changed on disk since the editor loaded it: nothing was written. */
export class SkillConflictError extends SkillServiceError {
  constructor(
    readonly path: string,
    /** What is on disk now ("" when the file was deleted meanwhile). */
    readonly theirs: string,
    readonly theirsDigest: string | null,
    /** The text the caller tried to save. */
    readonly yours: string,
    /** Unified diff from theirs to yours. */
    readonly diff: string,
  ) {
    super("CONFLICT", `${path} changed on disk since you opened it; nothing was overwritten. Compare both versions and save again.`);
    this.name = "SkillConflictError";
  }
}

export const forbidden = (msg: string) => new SkillServiceError("FORBIDDEN", msg);
export const notFound = (msg: string) => new SkillServiceError("NOT_FOUND", msg);
export const badRequest = (msg: string, details?: Record<string, unknown>) => new SkillServiceError("BAD_REQUEST", msg, details);
