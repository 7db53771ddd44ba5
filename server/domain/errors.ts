// The one error type services throw. A closed set of codes; one tRPC middleware maps them to HTTP statuses and
// audits refused rights (server/api/trpc.ts). Messages are for a person and never carry a stack or a host path
// outside the data home.

export const SERVICE_ERROR_CODES = [
  "BAD_REQUEST",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "NOT_FOUND",
  "CONFLICT",
  "PRECONDITION_FAILED",
  "PAYLOAD_TOO_LARGE",
  "TOO_MANY_REQUESTS",
  "UNAVAILABLE",
] as const;
export type ServiceErrorCode = (typeof SERVICE_ERROR_CODES)[number];

/** HTTP status of each code, for routes that answer without tRPC (catalog API, OTLP intake, exports). */
export const HTTP_STATUS: Record<ServiceErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  UNAVAILABLE: 503,
};

export class ServiceError extends Error {
  constructor(
    readonly code: ServiceErrorCode,
    message: string,
    /** Facts for the caller (diagnostics, the conflicting text, an archive error code). JSON-serialisable. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "ServiceError";
  }
}

/**
 * A service's own ServiceError class: still a ServiceError (the middleware maps it like any other), named for
 * logs and narrowed to the codes that service throws. Declare both the class and its instance type:
 * `export const FooError = serviceErrorClass<FooCode>("FooError"); export type FooError = InstanceType<typeof FooError>;`
 */
export function serviceErrorClass<Code extends ServiceErrorCode>(name: string) {
  return class extends ServiceError {
    declare readonly code: Code;
    constructor(code: Code, message: string, details?: Record<string, unknown>) {
      super(code, message, details);
      this.name = name;
    }
  };
}

export const isServiceError = (e: unknown): e is ServiceError => e instanceof ServiceError;
