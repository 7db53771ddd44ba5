// Telemetry in: what the OTLP/HTTP receiver (server/services/telemetry) accepts and which agent events it keeps.
// The event names and attributes come from the agents' own documentation (README, "Telemetry from agents").

/** Default for OMNIFORGE_TELEMETRY_MAX_BYTES: the same 4 MiB most OTLP receivers accept by default. */
export const TELEMETRY_DEFAULT_MAX_BYTES = 4 * 1024 * 1024;
export const TELEMETRY_MIN_MAX_BYTES = 1024;
export const TELEMETRY_MAX_MAX_BYTES = 64 * 1024 * 1024;

/** OTLP/HTTP's two encodings. */
export const OTLP_JSON = "application/json";
export const OTLP_PROTOBUF = "application/x-protobuf";

/** The agents we know by their OpenTelemetry resource's service.name (anything else keeps its own name). */
export const KNOWN_AGENTS = { "claude-code": "claude-code", codex: "codex" } as const;

/** Log events kept, by agent and event name (the agent's prefix removed). Anything else is counted and dropped. */
export const AGENT_LOG_EVENTS = {
  "claude-code": ["skill_activated", "tool_decision", "tool_result"],
  codex: ["tool_decision", "tool_result"],
} as const;

/** Counters kept: Codex counts skill injections rather than logging them. */
export const CODEX_SKILL_COUNTER = "codex.skill.injected";

/** Reported times further than this from the receipt are replaced by it (kept in details), so a wrong clock cannot reorder the audit. */
export const TELEMETRY_CLOCK_SKEW_MS = 24 * 60 * 60 * 1000;
/** Longest attribute value kept in an audit row's details. */
export const TELEMETRY_ATTRIBUTE_MAX_CHARS = 200;
/**
 * Audit rows one export request may become, all points and records together (a counter point is one row, with
 * its count). The SDKs export in batches of 512 records; what is past this is dropped and named in the answer's
 * partialSuccess.
 */
export const TELEMETRY_MAX_ROWS_PER_REQUEST = 10_000;
/**
 * Audit rows one token may write per minute, all its requests together: parallel requests each under the request
 * cap still filled the audit (90,000 rows from nine). A request that would pass it writes nothing and gets 429
 * with Retry-After, which the OTLP exporters honour by sending the batch again later.
 */
export const TELEMETRY_MAX_ROWS_PER_TOKEN_MINUTE = 30_000;
/** Nesting an OTLP JSON body may have (attribute values in arrays in lists...): checked before the schema recurses. */
export const TELEMETRY_MAX_JSON_DEPTH = 64;
/**
 * Objects and arrays one export request may hold, counted before the schema checks them. Checking and mapping cost
 * about a microsecond each, on the console's one thread: 4 MiB of empty records (a million and more) held every
 * page up for seconds. A full SDK batch (512 records) holds about 20,000, a collector's default batch (8,192) about
 * 300,000.
 */
export const TELEMETRY_MAX_VALUES_PER_REQUEST = 500_000;
