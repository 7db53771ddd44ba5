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

/** Where agents send their OTLP/HTTP telemetry; the exporters add /v1/logs and /v1/metrics (app/api/otel/v1/). */
export const TELEMETRY_INTAKE_PATH = "/api/otel";

/** The sync command a new catalog:read token is for, as the Tokens page shows it once (docs/cli.md). */
export function syncCommand(consoleUrl: string, token: string): string {
  return `omniforge sync --from ${consoleUrl} --token ${token} --agent claude-code --scope user`;
}

/**
 * The variables that make Claude Code send its events to this console with a telemetry:write token (its monitoring
 * docs; docs/cli.md says what each does). Tool details on, else custom skills are reported as "custom_skill".
 */
export function claudeCodeTelemetryEnv(consoleUrl: string, token: string): [name: string, value: string][] {
  return [
    ["CLAUDE_CODE_ENABLE_TELEMETRY", "1"],
    ["OTEL_LOGS_EXPORTER", "otlp"],
    ["OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf"],
    ["OTEL_EXPORTER_OTLP_ENDPOINT", `${consoleUrl}${TELEMETRY_INTAKE_PATH}`],
    ["OTEL_EXPORTER_OTLP_HEADERS", `Authorization=Bearer ${token}`],
    ["OTEL_LOG_TOOL_DETAILS", "1"],
  ];
}
