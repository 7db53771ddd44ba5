// The governance services' ServiceError (never a 500 for bad input): the serviceErrors middleware maps it.
import { serviceErrorClass } from "../../domain/errors";

export type GovernanceErrorCode = "BAD_REQUEST" | "FORBIDDEN" | "NOT_FOUND" | "CONFLICT" | "PRECONDITION_FAILED";

export const GovernanceError = serviceErrorClass<GovernanceErrorCode>("GovernanceError");
export type GovernanceError = InstanceType<typeof GovernanceError>;
