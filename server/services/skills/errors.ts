// Errors of the skills service. The router maps `code` to a tRPC error code; messages are for a person.
import { serviceErrorClass } from "../../domain/errors";

export type SkillErrorCode = "FORBIDDEN" | "NOT_FOUND" | "CONFLICT" | "BAD_REQUEST";

/** The skills service's ServiceError: the one error type, with the codes this service uses. */
export const SkillServiceError = serviceErrorClass<SkillErrorCode>("SkillServiceError");
export type SkillServiceError = InstanceType<typeof SkillServiceError>;

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

export const forbidden = (msg: string, details?: Record<string, unknown>) => new SkillServiceError("FORBIDDEN", msg, details);
export const notFound = (msg: string) => new SkillServiceError("NOT_FOUND", msg);
export const badRequest = (msg: string, details?: Record<string, unknown>) => new SkillServiceError("BAD_REQUEST", msg, details);
