// Environment of the console and the CLI, validated once (t3 env pattern). A bad value stops the start with
// one line naming the variable, instead of a stack trace later.
import { createEnv } from "@t3-oss/env-nextjs";
import { z } from "zod";

import { checkAllowedOrigins } from "./server/http/origin";
import { parseTrustedProxies } from "./server/http/peer";

/** A setting checked by a parser that throws with the bad entry named. */
const checkedBy = (check: (v: string) => unknown) =>
  z.string().superRefine((v, ctx) => {
    try {
      check(v);
    } catch (e) {
      ctx.addIssue({ code: "custom", message: (e as Error).message });
    }
  });

const flag = z.enum(["0", "1", "true", "false"]).transform((v) => v === "1" || v === "true");

export const env = createEnv({
  server: {
    NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
    OMNIFORGE_HOME: z.string().min(1).optional(),
    OMNIFORGE_PROJECT_ROOT: z.string().min(1).optional(),
    OMNIFORGE_DEMO: flag.default(true),
    OMNIFORGE_ADMIN_EMAIL: z.email().optional(),
    OMNIFORGE_ADMIN_PASSWORD: z.string().min(8, "must be at least 8 characters").optional(),
    OMNIFORGE_SANDBOX: z.enum(["unsafe"]).optional(),
    OMNIFORGE_AUDIT_STDOUT: flag.default(true),
    // Days of audit events kept in the database; older ones are archived to JSONL files. 0 keeps everything.
    OMNIFORGE_AUDIT_RETENTION_DAYS: z.coerce.number().int("must be a whole number of days").min(0).max(36_500).default(0),
    OMNIFORGE_MODEL: z.string().min(1).optional(),
    OMNIFORGE_LOGIN_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(10),
    // Addresses/CIDRs of reverse proxies whose X-Forwarded-For is believed (server/http/peer.ts).
    OMNIFORGE_TRUSTED_PROXIES: checkedBy(parseTrustedProxies).optional(),
    // Origins besides NEXTAUTH_URL's from which the console accepts state-changing requests.
    OMNIFORGE_ALLOWED_ORIGINS: checkedBy(checkAllowedOrigins).optional(),
    NEXTAUTH_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
    NEXTAUTH_URL: z.url().optional(),
    PORT: z.coerce.number().int().min(1).max(65535).optional(),
    OPENAI_BASE_URL: z.url().optional(),
    OPENAI_API_KEY: z.string().min(1).optional(),
    ANTHROPIC_API_KEY: z.string().min(1).optional(),
  },
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
