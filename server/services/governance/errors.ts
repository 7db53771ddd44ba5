// The governance services' ServiceError (never a 500 for bad input): the serviceErrors middleware maps it.
import { ServiceError } from "../../domain/errors";

export type GovernanceErrorCode = "BAD_REQUEST" | "FORBIDDEN" | "NOT_FOUND" | "CONFLICT" | "PRECONDITION_FAILED";

export class GovernanceError extends ServiceError {
  declare readonly code: GovernanceErrorCode;
  constructor(code: GovernanceErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, message, details);
    this.name = "GovernanceError";
  }
}
