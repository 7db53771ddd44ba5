// Errors the governance services raise with a code the routers map to tRPC codes (never a 500 for bad input).
export type GovernanceErrorCode = "BAD_REQUEST" | "FORBIDDEN" | "NOT_FOUND" | "CONFLICT";

export class GovernanceError extends Error {
  constructor(
    message: string,
    readonly code: GovernanceErrorCode,
  ) {
    super(message);
    this.name = "GovernanceError";
  }
}
