// Environment of the console and the CLI, validated once (t3 env pattern). A bad value stops the start with
// one line naming the variable, instead of a stack trace later.
import { isIP } from "node:net";
import { createEnv } from "@t3-oss/env-nextjs";
import { z } from "zod";

import { TELEMETRY_DEFAULT_MAX_BYTES, TELEMETRY_MAX_MAX_BYTES, TELEMETRY_MIN_MAX_BYTES } from "./server/domain/telemetry";
import { DEFAULT_MAX_ACTIVATION_DEPTH, DEFAULT_MAX_LOADED_SKILLS } from "./server/domain/skill-protocol";
import { checkAllowedOrigins } from "./server/http/origin";
import { parseTrustedProxies } from "./server/http/peer";
import { parseRoleMap } from "./server/domain/oidc";

/** A setting checked by a parser that throws with the bad entry named. */
const checkedBy = (check: (v: string) => unknown) =>
  z.string().superRefine((v, ctx) => {
    try {
      check(v);
    } catch (e) {
      ctx.addIssue({ code: "custom", message: (e as Error).message });
    }
  });

/** A yes/no setting in any of the usual spellings (1/0, true/false, yes/no, on/off; any case). */
const flag = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.enum(["1", "0", "true", "false", "yes", "no", "on", "off"], { error: "use 1/0, true/false, yes/no or on/off" }))
  .transform((v) => v === "1" || v === "true" || v === "yes" || v === "on");

/** A host name as a listening address takes it: dot-separated labels of letters, digits and inner hyphens. */
const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** An address the console or a provider is reached at. z.url() alone takes "localhost:3000" (scheme "localhost:"). */
const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL, such as http://localhost:3000" });

/**
 * The console's PostgreSQL, as node-postgres reads it (the WHATWG URL, then each part percent-decoded). A generated
 * password holding / # ? or a stray % breaks that parse, or parses as another host and port, and "must be a URL" did not
 * say why: the line says what to encode. It never repeats the value, which holds the password.
 */
const POSTGRES_URL_EXAMPLE = "postgres://omniforge:PASSWORD@db.internal:5432/omniforge";
const postgresUrl = z.string().superRefine((v, ctx) => {
  const fail = (message: string) => ctx.addIssue({ code: "custom", message });
  if (!/^postgres(ql)?:\/\//.test(v)) return fail(`must be a postgres:// URL, such as ${POSTGRES_URL_EXAMPLE}`);
  const unencoded = `must be a postgres:// URL, such as ${POSTGRES_URL_EXAMPLE}, with @ : / ? # % percent-encoded in the user name and password (encodeURIComponent; / is %2F, @ is %40)`;
  let url: URL;
  try {
    url = new URL(v);
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
  } catch {
    return fail(unencoded);
  }
  // "omniforge:12/34@db..." parses too (host "omniforge", port 12, the rest a path): an @ after the host is a password.
  if (`${url.pathname}${url.search}${url.hash}`.includes("@")) return fail(unencoded);
});

/** Every setting of the console and the CLI, declared once. The README's settings table documents each. */
export const SETTINGS = {
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  OMNIFORGE_HOME: z.string().min(1).optional(),
  // The console's database when set (db/client.ts); unset, console.db in the data home. See docs/deploy.md.
  DATABASE_URL: postgresUrl.optional(),
  OMNIFORGE_PROJECT_ROOT: z.string().min(1).optional(),
  // Where the CLI keeps what it remembers between runs (server/runtime/registry/listing-cache.ts); "off" turns it off.
  OMNIFORGE_CACHE_DIR: z.string().min(1).optional(),
  // CLI: whether a first `skill list` walks and reads on a second thread while the first checks (walk-helper.ts).
  OMNIFORGE_SCAN_THREAD: flag.default(true),
  // Skills on or off for agent runs (playground, agent run), over config.yaml's skills.enabled; unset follows the file.
  OMNIFORGE_SKILLS_ENABLED: flag.optional(),
  // CLI: an error no command expected prints its stack under the one-line message (server/cli/main.ts).
  OMNIFORGE_DEBUG: flag.default(false),
  OMNIFORGE_DEMO: flag.default(true),
  OMNIFORGE_ADMIN_EMAIL: z.email().optional(),
  OMNIFORGE_ADMIN_PASSWORD: z.string().min(8, "must be at least 8 characters").optional(),
  OMNIFORGE_SANDBOX: z.enum(["unsafe"]).optional(),
  OMNIFORGE_AUDIT_STDOUT: flag.default(true),
  // Days of audit events kept in the database; older ones are archived to JSONL files. 0 keeps everything.
  OMNIFORGE_AUDIT_RETENTION_DAYS: z.coerce
    .number({ error: "must be a whole number of days" })
    .int("must be a whole number of days")
    .min(0, "must be from 0 (keep everything) to 36500 days")
    .max(36_500, "must be from 0 (keep everything) to 36500 days")
    .default(0),
  OMNIFORGE_MODEL: z.string().min(1).optional(),
  // Largest OTLP request body /api/otel/v1/* accepts (after gzip is undone); larger ones get 413.
  OMNIFORGE_TELEMETRY_MAX_BYTES: z.coerce
    .number({ error: "must be a number of bytes" })
    .int("must be a whole number of bytes")
    // The constructor's error would otherwise name every failure "must be a number of bytes", a bound included.
    .min(TELEMETRY_MIN_MAX_BYTES, `must be from ${TELEMETRY_MIN_MAX_BYTES} to ${TELEMETRY_MAX_MAX_BYTES} bytes`)
    .max(TELEMETRY_MAX_MAX_BYTES, `must be from ${TELEMETRY_MIN_MAX_BYTES} to ${TELEMETRY_MAX_MAX_BYTES} bytes`)
    .default(TELEMETRY_DEFAULT_MAX_BYTES),
  OMNIFORGE_LOGIN_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(10),
  // Addresses/CIDRs of reverse proxies whose X-Forwarded-For is believed (server/http/peer.ts).
  OMNIFORGE_TRUSTED_PROXIES: checkedBy(parseTrustedProxies).optional(),
  // Origins besides NEXTAUTH_URL's from which the console accepts state-changing requests.
  OMNIFORGE_ALLOWED_ORIGINS: checkedBy(checkAllowedOrigins).optional(),
  // Single sign-on through an OpenID provider (server/auth-oidc.ts): its issuer (discovered at start), this console's
  // client there, the claim holding a person's groups and the groups' roles.
  OMNIFORGE_OIDC_ISSUER: httpUrl.optional(),
  OMNIFORGE_OIDC_CLIENT_ID: z.string().min(1).optional(),
  OMNIFORGE_OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OMNIFORGE_OIDC_NAME: z.string().trim().min(1).max(60, "must be at most 60 characters").default("single sign-on"),
  OMNIFORGE_OIDC_ROLES_CLAIM: z.string().min(1).default("groups"),
  OMNIFORGE_OIDC_ROLE_MAP: checkedBy(parseRoleMap).optional(),
  // The claim holding a person's tenants (issue #40); set, it replaces their tenants at every sign-in.
  OMNIFORGE_OIDC_TENANTS_CLAIM: z.string().min(1).optional(),
  // Whether the email-and-password sign-in is offered and accepted (off: only the OpenID provider signs people in).
  OMNIFORGE_PASSWORD_LOGIN: flag.default(true),
  NEXTAUTH_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  NEXTAUTH_URL: httpUrl.optional(),
  PORT: z.coerce.number().int().min(1).max(65535).optional(),
  // The address the console listens on; unset, every interface (scripts/serve.ts).
  HOST: z
    .string()
    .refine((v) => isIP(v) !== 0 || HOST_NAME.test(v), "must be an address of this machine (127.0.0.1, ::1, 0.0.0.0) or a host name such as localhost")
    .optional(),
  OPENAI_BASE_URL: httpUrl.optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  ANTHROPIC_API_KEY: z.string().min(1).optional(),
  // Issue 36's optional meaning search: an OpenAI-compatible /embeddings endpoint fused with the lexical ranking.
  OMNIFORGE_EMBEDDINGS_URL: httpUrl.optional(),
  OMNIFORGE_EMBEDDINGS_MODEL: z.string().min(1).optional(),
  OMNIFORGE_EMBEDDINGS_API_KEY: z.string().min(1).optional(),
  // With a model provider, routing may ask the model to choose among the ranking's first k (0: it does not).
  OMNIFORGE_ROUTING_PICK_TOP_K: z.coerce
    .number({ error: "must be a number of skills" })
    .int("must be a whole number")
    .min(0, "must be 0 (off) or from 2 to 20")
    .max(20, "must be 0 (off) or from 2 to 20")
    .refine((n) => n !== 1, "must be 0 (off) or from 2 to 20: a choice among one is no choice")
    .default(0),
  ANTHROPIC_BASE_URL: httpUrl.optional(),
  // Context window of the configured model (the listing budget is 1% of it) and the cap of one answer.
  OMNIFORGE_CONTEXT_TOKENS: z.coerce.number().int().min(1000).optional(),
  OMNIFORGE_MODEL_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).optional(),
  // `omniforge sync`: how long it waits for the console to start answering, and then between two parts of an answer.
  OMNIFORGE_SYNC_TIMEOUT_SECONDS: z.coerce.number({ error: "must be a number of seconds" }).int("must be whole seconds").min(1, "must be from 1 to 3600 seconds").max(3600, "must be from 1 to 3600 seconds").default(30),
  OMNIFORGE_MAX_OUTPUT_TOKENS: z.coerce.number().int().min(1).optional(),
  // The provider when none is named (CLI and playground default): offline, openai or anthropic.
  OMNIFORGE_PROVIDER: z.enum(["offline", "openai", "anthropic"]).optional(),
  // Skill scripts the console runs at once (playground turns and hooks); more wait their turn.
  OMNIFORGE_SCRIPT_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  // Spec 004: skills loaded at once in an orchestrated session (skills.load beyond it is refused, saying so).
  OMNIFORGE_MAX_LOADED_SKILLS: z.coerce.number().int().min(1).max(32).default(DEFAULT_MAX_LOADED_SKILLS),
  // Seed 000: skills on one activation chain (a skill activating a skill...), across fork sub-agents.
  OMNIFORGE_MAX_ACTIVATION_DEPTH: z.coerce.number().int().min(1).max(50).default(DEFAULT_MAX_ACTIVATION_DEPTH),
  // Whether the console follows the layer folders on disk (0: only its own writes refresh; tests use it).
  OMNIFORGE_WATCH: flag.default(true),
  // Several servers on one data home on shared storage (issue #38): rescan the layer folders every N seconds, since
  // another server's writes raise no file notification here (0: off, notifications only). docs/deploy.md.
  OMNIFORGE_INDEX_POLL_SECONDS: z.coerce.number({ error: "must be a number of seconds" }).int("must be whole seconds").min(0, "must be from 0 to 3600 seconds").max(3600, "must be from 0 to 3600 seconds").default(0),
  // Single-user installs: every console user's personal layer also reads the agents' folders of the console's HOME.
  OMNIFORGE_PERSONAL_AGENT_FOLDERS: flag.default(false),
  // The scope context of a caller that names none (console, playground, CLI): a skill scoped to environments,
  // agents or tenants is active only when the context matches, and a missing value matches nothing.
  OMNIFORGE_DEFAULT_ENVIRONMENT: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, "must be a name (letters, digits, . _ -)").optional(),
  OMNIFORGE_DEFAULT_AGENT: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, "must be a name (letters, digits, . _ -)").optional(),
  OMNIFORGE_DEFAULT_TENANT: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, "must be a name (letters, digits, . _ -)").optional(),
  // Whether playground turns run in a worker thread, off the console's request path (0: in the request thread).
  OMNIFORGE_TURN_WORKER: flag.default(true),
  // Tests only: the database the service tests' temp databases live in (postgres: a throw-away cluster for the run).
  OMNIFORGE_TEST_DATABASE: z.enum(["sqlite", "postgres"]).default("sqlite"),
  // Where the shared fixtures are (tests and benchmarks only): default ../shared beside the clone.
  OMNIFORGE_SHARED_DIR: z.string().min(1).optional(),
} as const;

type Settings = typeof SETTINGS;
export type SettingName = keyof Settings;
export type EnvSource = Record<string, string | undefined>;

/** The process's environment, for code that hands an environment on (the CLI's io, providers' keys). */
export function processEnv(): EnvSource {
  return process.env;
}

/**
 * For the sandbox's self-test only: puts a fake secret into this process's environment, to prove a script never
 * sees the server's environment, and returns the function that puts the environment back as it was.
 */
export function plantEnvSecret(key: string, value: string): () => void {
  const before = process.env[key];
  process.env[key] = value;
  return () => {
    if (before === undefined) delete process.env[key];
    else process.env[key] = before;
  };
}

/**
 * One setting, read now from `source` (default: the process environment) and checked by its declaration above.
 * Tests and the CLI change or pass their own environment after start, so this reads on each call.
 */
export function setting<K extends SettingName>(name: K, source: EnvSource = process.env): z.output<Settings[K]> {
  const raw = source[name];
  const r = SETTINGS[name].safeParse(raw === "" ? undefined : raw);
  if (!r.success) throw new Error(`Invalid environment variable ${name}: ${r.error.issues[0]?.message ?? "invalid"}`);
  return r.data as z.output<Settings[K]>;
}

export const env = createEnv({
  server: SETTINGS,
  client: {},
  experimental__runtimeEnv: {},
  emptyStringAsUndefined: true,
  skipValidation: !!process.env.SKIP_ENV_VALIDATION,
  onValidationError: (issues) => {
    const first = issues[0];
    const name = first?.path?.map((p) => (typeof p === "object" ? String(p.key) : String(p))).join(".") ?? "?";
    const others = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
    throw new Error(`Invalid environment variable ${name}: ${first?.message ?? "invalid"}${others}`);
  },
});
